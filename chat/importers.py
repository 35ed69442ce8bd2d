"""Import conversation files: parse them into sessions, then store each through chat.services.

Two formats:
- jsonl: one session per line, `{"user", "external_id", "persona", "title", "started_at",
  "messages": [{"role", "content", "created_at", "external_id"}]}`; everything but `messages` is
  optional, so plain OpenAI-style `{"messages": [...]}` lines work.
- chatgpt: the `conversations.json` of a ChatGPT data export (a list of conversations, each a
  `mapping` tree of nodes; the visible thread is the chain from the root to `current_node`).

Each parser yields `(number, ParsedSession | ImportLineError)` so one bad line is reported with its
number and the rest still imports.
"""
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from datetime import timezone as dt_timezone

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from chat.models import Client, Persona
from chat.services import (
    NewMessage,
    SessionToImport,
    UnknownUser,
    messages_check_sizes,
    persona_get_or_create,
    session_import,
    sessions_import,
    user_resolve,
)

ROLES = ("user", "assistant", "system")
MAX_EXTERNAL_ID = 200
_EARLIEST = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
_LATEST = datetime(2200, 1, 1, tzinfo=dt_timezone.utc)


class ImportLineError(ValueError):
    pass


@dataclass(frozen=True)
class ParsedSession:
    messages: list[NewMessage]
    external_id: str
    username: str = ""
    persona_slug: str = ""
    title: str = ""
    started_at: datetime | None = None


def parse_time(value, *, where: str) -> datetime | None:
    """ISO 8601 string (naive = UTC) or Unix seconds; None/"" = unknown."""
    if value is None or value == "":
        return None
    parsed = None
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            parsed = datetime.fromtimestamp(value, tz=dt_timezone.utc)
        elif isinstance(value, str):
            parsed = parse_datetime(value.strip())
    except (ValueError, OverflowError, OSError):
        parsed = None
    if parsed is None:
        raise ImportLineError(f"{where}: {value!r} is not an ISO 8601 time")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=dt_timezone.utc)
    if not _EARLIEST <= parsed < _LATEST:
        raise ImportLineError(f"{where}: {value!r} is not between 1970 and 2200")
    return parsed


def _text(value, *, where: str, max_length: int | None = None) -> str:
    if value is None:
        return ""
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ImportLineError(f"{where} must be a string")
    text = str(value)
    if "\x00" in text:
        raise ImportLineError(f"{where} contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ImportLineError(f"{where} contains a lone surrogate (invalid Unicode)") from None
    if max_length is not None and len(text) > max_length:
        raise ImportLineError(f"{where} is longer than {max_length} characters")
    return text


def _content_text(content) -> str:
    """OpenAI content may be a string or a list of parts ({"type": "text", "text": ...})."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p if isinstance(p, str) else p.get("text", "") for p in content if isinstance(p, (str, dict))]
        return "\n".join(t for t in texts if isinstance(t, str) and t)
    raise ImportLineError("content must be a string or a list of text parts")


def _derived_session_id(messages: list[NewMessage]) -> str:
    # Lines without an external_id still re-import idempotently: the id is a digest of the content.
    digest = hashlib.sha256()
    for m in messages:
        digest.update(f"{m.role}\x1f{m.content}\x1e".encode("utf-8", "surrogatepass"))
    return f"jsonl-{digest.hexdigest()[:24]}"


def jsonl_session(data) -> ParsedSession:
    if not isinstance(data, dict):
        raise ImportLineError("a line must be a JSON object with a 'messages' list")
    raw_messages = data.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise ImportLineError("'messages' must be a non-empty list")
    messages = []
    for index, raw in enumerate(raw_messages):
        where = f"messages[{index}]"
        if not isinstance(raw, dict):
            raise ImportLineError(f"{where} must be an object")
        role = raw.get("role")
        if role not in ROLES:
            raise ImportLineError(f"{where}.role must be one of {', '.join(ROLES)}, got {role!r}")
        content = _text(_content_text(raw.get("content")), where=f"{where}.content")
        if not content.strip():
            raise ImportLineError(f"{where}.content is empty")
        external_id = _text(raw.get("external_id", raw.get("id")), where=f"{where}.external_id", max_length=MAX_EXTERNAL_ID)
        messages.append(NewMessage(
            role=role, content=content, created_at=parse_time(raw.get("created_at"), where=f"{where}.created_at"),
            # Without ids, a message is identified by its position, so a grown conversation appends.
            external_id=external_id or f"#{index + 1}",
        ))
    external_id = _text(data.get("external_id", data.get("id")), where="external_id", max_length=MAX_EXTERNAL_ID)
    return ParsedSession(
        messages=messages,
        external_id=external_id or _derived_session_id(messages),
        username=_text(data.get("user"), where="user", max_length=150),
        persona_slug=_text(data.get("persona"), where="persona", max_length=64),
        title=_text(data.get("title"), where="title")[:200],
        started_at=parse_time(data.get("started_at"), where="started_at"),
    )


def jsonl_sessions(lines: Iterable[bytes]) -> Iterator[tuple[int, ParsedSession | ImportLineError]]:
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, ImportLineError(f"not valid UTF-8 (byte {exc.start})")
            continue
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            yield number, ImportLineError(f"not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        except RecursionError:  # [reliability] a nesting bomb ("[[[[…") must not kill the whole import
            yield number, ImportLineError("not valid JSON (nested too deeply)")
            continue
        try:
            yield number, jsonl_session(data)
        except ImportLineError as exc:
            yield number, exc


# --- ChatGPT export --------------------------------------------------------------------------

_CHATGPT_TEXT_TYPES = ("text", "multimodal_text")


def _chatgpt_chain(mapping: dict, current_node: str | None) -> list[dict]:
    """The visible thread: from the root down to current_node (edits and regenerations create
    sibling branches; only the one the user last saw counts)."""
    if current_node not in mapping:
        # No current_node: follow the last child from the root, as the ChatGPT UI shows by default.
        roots = [key for key, node in mapping.items() if not node.get("parent") or node.get("parent") not in mapping]
        if not roots:
            raise ImportLineError("conversation mapping has no root node")
        current_node, seen = roots[0], set()
        while mapping[current_node].get("children") and current_node not in seen:
            seen.add(current_node)
            children = [c for c in mapping[current_node]["children"] if c in mapping]
            if not children:
                break
            current_node = children[-1]
    chain, seen = [], set()
    node_id = current_node
    while node_id in mapping and node_id not in seen:
        seen.add(node_id)
        chain.append(mapping[node_id])
        node_id = mapping[node_id].get("parent")
    return list(reversed(chain))


def _chatgpt_message(node: dict) -> NewMessage | None:
    message = node.get("message")
    if not isinstance(message, dict):
        return None
    role = (message.get("author") or {}).get("role")
    metadata = message.get("metadata") or {}
    content = message.get("content") or {}
    if role not in ("user", "assistant") or metadata.get("is_visually_hidden_from_conversation"):
        return None  # system prompts, tool calls and hidden context are not conversation
    if message.get("recipient", "all") != "all" or content.get("content_type", "text") not in _CHATGPT_TEXT_TYPES:
        return None
    parts = content.get("parts") or []
    text = "\n".join(p for p in parts if isinstance(p, str) and p.strip()).replace("\x00", "")
    if not text.strip():
        return None
    return NewMessage(
        role=role, content=text,
        created_at=parse_time(message.get("create_time"), where="create_time"),
        external_id=str(message.get("id") or node.get("id") or "")[:MAX_EXTERNAL_ID],
    )


def chatgpt_session(conversation) -> ParsedSession | None:
    """None = a conversation with no visible text (nothing to import, not an error)."""
    if not isinstance(conversation, dict) or not isinstance(conversation.get("mapping"), dict):
        raise ImportLineError("a conversation must be an object with a 'mapping'")
    chain = _chatgpt_chain(conversation["mapping"], conversation.get("current_node"))
    messages = [m for m in (_chatgpt_message(node) for node in chain if isinstance(node, dict)) if m is not None]
    if not messages:
        return None
    external_id = str(conversation.get("conversation_id") or conversation.get("id") or "")[:MAX_EXTERNAL_ID]
    return ParsedSession(
        messages=messages,
        external_id=external_id or _derived_session_id(messages),
        title=_text(conversation.get("title"), where="title")[:200],
        started_at=parse_time(conversation.get("create_time"), where="create_time"),
    )


def chatgpt_load(raw: bytes) -> list:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ImportLineError(f"not a ChatGPT conversations.json ({exc})") from None
    if not isinstance(data, list):
        raise ImportLineError("a ChatGPT conversations.json is a JSON list of conversations")
    return data


def chatgpt_sessions(conversations: list) -> Iterator[tuple[int, ParsedSession | ImportLineError | None]]:
    for number, conversation in enumerate(conversations, start=1):
        try:
            yield number, chatgpt_session(conversation)
        except ImportLineError as exc:
            yield number, exc


# --- storing ---------------------------------------------------------------------------------

@dataclass
class ImportReport:
    sessions_created: int = 0
    sessions_updated: int = 0
    sessions_unchanged: int = 0
    messages_appended: int = 0
    messages_duplicate: int = 0
    empty: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len(self.errors)


# A batch is one transaction and a fixed handful of statements (see sessions_import).
BATCH_SESSIONS = 500
BATCH_MESSAGES = 20_000


@dataclass
class _Batch:
    """Parsed sessions waiting to be stored, by line number; a conversation appears at most once."""
    items: list[tuple[int, SessionToImport]] = field(default_factory=list)
    keys: set[tuple[int, str]] = field(default_factory=set)
    messages: int = 0

    def add(self, number: int, session: SessionToImport) -> None:
        self.items.append((number, session))
        self.keys.add((session.user.pk, session.external_id))
        self.messages += len(session.messages)

    def holds(self, session: SessionToImport) -> bool:
        return (session.user.pk, session.external_id) in self.keys

    def clear(self) -> None:
        self.items, self.keys, self.messages = [], set(), 0


def import_run(
    items: Iterable[tuple[int, "ParsedSession | ImportLineError | None"]],
    *,
    default_username: str = "",
    create_users: bool = False,
    client: Client | None = None,
    now: datetime | None = None,
    on_item: Callable[[int], None] | None = None,
    batch_sessions: int = BATCH_SESSIONS,
) -> ImportReport:
    """Store parsed sessions in batches, one transaction each; users and personas are resolved once
    per file. A bad item is recorded with its number and skipped, so the rest still imports.
    Re-importing is idempotent (see sessions_import)."""
    now = now or timezone.now()
    report = ImportReport()
    users: dict[str, AbstractBaseUser] = {}
    personas: dict[str, Persona] = {}
    batch = _Batch()
    for number, item in items:
        try:
            if isinstance(item, ImportLineError):
                raise item
            if item is None:
                report.empty += 1
                continue
            messages_check_sizes(messages=item.messages, label="messages[{index}].content")
            username = item.username or default_username
            if not username:
                raise ImportLineError("no 'user' on the line and no --user given")
            if username not in users:
                users[username] = user_resolve(username=username, create=create_users, client=client)
            if item.persona_slug and item.persona_slug not in personas:
                personas[item.persona_slug] = persona_get_or_create(slug=item.persona_slug)
        except UnknownUser as exc:
            report.errors.append((number, str(exc).replace("send create_user: true", "pass --create-user")))
        except ValueError as exc:  # ImportLineError, a message over the size limit, bad persona slug, bad username
            report.errors.append((number, str(exc)))
        else:
            session = SessionToImport(
                user=users[username], messages=item.messages, external_id=item.external_id,
                persona=personas.get(item.persona_slug), title=item.title, started_at=item.started_at,
            )
            if batch.holds(session):  # the same conversation twice: the second copy appends to the first
                _batch_store(batch, report=report, now=now, on_item=on_item)
            batch.add(number, session)
            if len(batch.items) >= batch_sessions or batch.messages >= BATCH_MESSAGES:
                _batch_store(batch, report=report, now=now, on_item=on_item)
            continue
        if on_item is not None:
            on_item(number)
    _batch_store(batch, report=report, now=now, on_item=on_item)
    report.errors.sort()
    return report


def _batch_store(batch: _Batch, *, report: ImportReport, now: datetime, on_item) -> None:
    """Store a batch and empty it. A session created meanwhile by a concurrent import makes the batch
    fail as a whole; it is then stored one session at a time, each idempotent on its own."""
    if not batch.items:
        return
    try:
        results = sessions_import(sessions=[s for _, s in batch.items], now=now)
        outcomes = list(zip((number for number, _ in batch.items), results))
    except IntegrityError:
        outcomes = []
        for number, s in batch.items:
            try:
                outcomes.append((number, session_import(
                    user=s.user, messages=s.messages, external_id=s.external_id,
                    persona_slug=s.persona.slug if s.persona else "", title=s.title, started_at=s.started_at, now=now,
                )))
            except ValueError as exc:
                report.errors.append((number, str(exc)))
    for _, result in outcomes:
        report.messages_appended += result.appended
        report.messages_duplicate += result.duplicates
        if result.created:
            report.sessions_created += 1
        elif result.appended:
            report.sessions_updated += 1
        else:
            report.sessions_unchanged += 1
    if on_item is not None:
        for number, _ in batch.items:
            on_item(number)
    batch.clear()
