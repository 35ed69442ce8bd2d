"""MEMORY.md: the small, token-budgeted memory document that is always in the chat model's context.

Rendering happens while the user sleeps (deep sleep, weekly, feedback, deletes call
`memory_md_render_all`); the chat path only calls `memory_md_get`: no query when the process's
cache holds the document (invalidated by Postgres NOTIFY), else one indexed query.
"""
from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.base import ModelState
from django.utils import timezone

from dreaming.engine.language import WIDE_CHARS
from dreaming.engine.said_again import said_with_more
from chat.models import ChatSession, Persona
from dreaming.memory.context_cache import memory_md_cache_evict, memory_md_cached
from dreaming.memory.feedback import latest_verdict_subquery
from dreaming.models import Category, Feedback, Memory, MemoryDocument, MemorySettings

# Section order and headings. Headings stay English whatever the statements' language: the
# chat model reads them, the user reads the statements.
SECTIONS: tuple[tuple[str, str], ...] = (
    (Category.FACT, "Facts"),
    (Category.PREFERENCE, "Preferences"),
    (Category.RELATION, "Relations"),
    (Category.EVENT, "Events"),
    (Category.EMOTION, "Emotions"),
)
TITLE = "# Memory"
UNSURE_MARK = " (unsure)"

# --- Token estimate ----------------------------------------------------------------------
# An offline stand-in for a BPE tokenizer (cl100k / o200k): high for English, so an English
# budget holds; for Chinese it matches o200k, while cl100k may need up to ~1.5x (see README):
#   * a CJK character (Han, kana, Hangul, CJK punctuation, full-width forms) = 1 token;
#   * a Latin/Cyrillic/... word = 1 token up to 6 letters, +1 per further 4 letters
#     (≈ 1.3 tokens per English word on average);
#   * digits = 1 token per 3 (BPE vocabularies split numbers in groups of three);
#   * every other visible symbol (punctuation, "-", "#", emoji) = 1 token;
#   * a run of line breaks = 1 token; spaces are free (they merge into the next token).
_CJK = WIDE_CHARS
_TOKEN_RE = re.compile(rf"(?P<cjk>[{_CJK}])|(?P<digits>\d+)|(?P<word>[^\W\d_{_CJK}]+)|(?P<newline>\n+)|(?P<space>\s+)|(?P<other>.)")


def count_tokens(text: str) -> int:
    tokens = 0
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        if kind == "word":
            tokens += 1 + math.ceil(max(0, len(match.group()) - 6) / 4)
        elif kind == "digits":
            tokens += math.ceil(len(match.group()) / 3)
        elif kind != "space":
            tokens += 1
    return tokens


# --- Rendering ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Line:
    memory_id: int
    category: str
    text: str


def _scope_memories(*, user: AbstractBaseUser, persona: Persona | None):
    scope = Q(persona__isnull=True)
    if persona is not None:
        scope |= Q(persona=persona)
    # Memory off: no memories, so the document is empty (MemorySettings' one rule, in the same query).
    return (
        MemorySettings.exclude_off(Memory.objects.filter(scope, user=user, status=Memory.Status.ACTIVE), user_path="user__")
        # A plan whose time has passed and that weekly kept as a dated event (weekly.plans_correct) is
        # history: recall's long tail serves it, the always-present document no longer says it.
        .exclude(score_breakdown__has_key="plan_corrected")
        .annotate(verdict=latest_verdict_subquery(applied_only=False))
        .only("id", "statement", "category", "importance", "confidence", "last_seen")
    )


def _priority(memory: Memory) -> tuple:
    """Agreed first, then most important, most confident, most recently seen."""
    return (memory.verdict != Feedback.Verdict.AGREE, -memory.importance, -memory.confidence, -memory.last_seen.timestamp(), memory.id)


def _assemble(lines: list[_Line]) -> str:
    if not lines:
        return ""
    blocks = [TITLE]
    for category, heading in SECTIONS:
        items = [line.text for line in lines if line.category == category]
        if items:
            blocks.append(f"## {heading}\n" + "\n".join(items))
    return "\n\n".join(blocks) + "\n"


class _DocumentTokens:
    """count_tokens(_assemble(lines)) kept as lines are added, without assembling and counting the whole
    document again for each line (that was quadratic in the lines). Exact because the document's pieces
    (title, headings, lines) hold no line break and meet only at line breaks, which are tokens of their
    own: the document counts its title, each present section's heading and lines, one token per run of
    line breaks (before each section, after its heading, between its lines) and the final one."""

    _HEADINGS = {category: count_tokens(f"## {heading}") for category, heading in SECTIONS}
    _TITLE = count_tokens(TITLE)

    def __init__(self) -> None:
        self.lines: dict[str, int] = {}  # category -> how many lines
        self.total = 0  # tokens of the lines, all sections

    def with_line(self, line: _Line, tokens: int) -> int:
        """The document's tokens were `line` (of `tokens` tokens) added."""
        counted = dict(self.lines)
        total = self.total
        if line.category in self._HEADINGS:
            counted[line.category] = counted.get(line.category, 0) + 1
            total += tokens
        sections = sum(1 + self._HEADINGS[category] + n for category, n in counted.items())
        return self._TITLE + sections + total + 1

    def add(self, line: _Line, tokens: int) -> None:
        if line.category in self._HEADINGS:
            self.lines[line.category] = self.lines.get(line.category, 0) + 1
            self.total += tokens


def memory_md_compose(*, memories: list[Memory], budget: int) -> tuple[str, list[int]]:
    """Fill the budget in priority order; stop at the first line that no longer fits (headings count).

    Stopping (rather than skipping to shorter lines) keeps MEMORY.md a strict "most important
    first" prefix; everything after it is the long tail that recall serves.
    """
    accepted: list[_Line] = []
    document = _DocumentTokens()
    # "User has a dog" beside "User's dog is named Biscuit": the document says it once (engine.said_again)
    said_more = said_with_more([m.statement for m in memories])
    memories = [m for i, m in enumerate(memories) if i not in said_more]
    for memory in sorted(memories, key=_priority):
        statement = " ".join(memory.statement.split())
        if not statement:
            continue
        marker = UNSURE_MARK if memory.verdict == Feedback.Verdict.DOUBT else ""
        line = _Line(memory_id=memory.id, category=memory.category, text=f"- {statement}{marker}")
        tokens = count_tokens(line.text)
        if document.with_line(line, tokens) > budget:
            break
        document.add(line, tokens)
        accepted.append(line)
    # Ids in the order they appear in the document.
    order = {category: i for i, (category, _) in enumerate(SECTIONS)}
    ids = [line.memory_id for line in sorted(accepted, key=lambda line: order.get(line.category, len(order)))]
    return _assemble(accepted), ids


def memory_md_render(*, user: AbstractBaseUser, persona: Persona | None = None) -> MemoryDocument:
    """Render and store MEMORY.md for one scope; the version goes up only when the text changed.
    Two statements: the scope's memories (none when memory is off: the document is then empty, as it
    is with no memories) and the document's upsert."""
    # A rejected memory is the user saying "that is wrong": it stays out of the context.
    memories = [m for m in _scope_memories(user=user, persona=persona) if m.verdict != Feedback.Verdict.REJECT]
    content, ids = memory_md_compose(memories=memories, budget=settings.MEMORY_MD_TOKENS)
    fields = {"content": content, "memory_ids": ids, "token_count": count_tokens(content),
              "token_budget": settings.MEMORY_MD_TOKENS, "rendered_at": timezone.now()}
    with transaction.atomic():
        # Read-your-writes in this process: drop the cached copy as soon as this commits, before
        # the NOTIFY (sent by the table's trigger) reaches the listener thread.
        transaction.on_commit(functools.partial(memory_md_cache_evict, user_id=getattr(user, "pk", user)))
        return _document_upsert(user=user, persona=persona, fields=fields)


# The scope's document made (version 1) or updated in one statement: the row is locked by the upsert as
# by a SELECT … FOR UPDATE, and a document another process made meanwhile is updated, not duplicated.
_DOCUMENT_UPSERT_SQL = f"""
INSERT INTO {MemoryDocument._meta.db_table} AS d
    (user_id, persona_id, content, memory_ids, token_count, token_budget, rendered_at, version)
VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s, 1)
ON CONFLICT ON CONSTRAINT memory_document_unique_scope DO UPDATE SET
    version = d.version + (d.content IS DISTINCT FROM EXCLUDED.content)::int,
    content = EXCLUDED.content, memory_ids = EXCLUDED.memory_ids, token_count = EXCLUDED.token_count,
    token_budget = EXCLUDED.token_budget, rendered_at = EXCLUDED.rendered_at
RETURNING id, version
"""


def _document_upsert(*, user, persona, fields: dict) -> MemoryDocument:
    with connection.cursor() as cursor:
        cursor.execute(_DOCUMENT_UPSERT_SQL, [
            getattr(user, "pk", user), getattr(persona, "pk", persona), fields["content"], json.dumps(fields["memory_ids"]),
            fields["token_count"], fields["token_budget"], fields["rendered_at"],
        ])
        pk, version = cursor.fetchone()
    document = MemoryDocument(pk=pk, user=user, persona=persona, version=version, **fields)
    document._state.adding, document._state.db = False, connection.alias  # a stored row, as get() gives
    return document


_SCOPES_SQL = f"""
SELECT * FROM {Persona._meta.db_table} WHERE id IN (
    SELECT persona_id FROM {Memory._meta.db_table} WHERE user_id = %(user)s AND persona_id IS NOT NULL
    UNION SELECT persona_id FROM {ChatSession._meta.db_table} WHERE user_id = %(user)s AND persona_id IS NOT NULL
    UNION SELECT persona_id FROM {MemoryDocument._meta.db_table} WHERE user_id = %(user)s AND persona_id IS NOT NULL
) ORDER BY slug, id
"""


def memory_md_scopes(*, user: AbstractBaseUser) -> list[Persona | None]:
    """The profile plus every persona the user has memories, sessions or a stored document with (one
    query, written out: the ORM's three-way union cost more to build than to run)."""
    return [None, *Persona.objects.raw(_SCOPES_SQL, {"user": getattr(user, "pk", user)})]


def memory_md_render_all(*, user: AbstractBaseUser) -> list[MemoryDocument]:
    return [memory_md_render(user=user, persona=persona) for persona in memory_md_scopes(user=user)]


def memory_md_get(*, user: AbstractBaseUser, persona: Persona | None = None) -> MemoryDocument | None:
    """The chat path: no query when the process's cache holds the scope, else one indexed query.

    The cache (dreaming/memory/context_cache.py, MEMORY_MD_CACHE) is invalidated by Postgres NOTIFY from
    triggers on MemoryDocument and MemorySettings. Inside a transaction the cache is bypassed both
    ways: the transaction may see (and later roll back) writes no one else sees yet.

    The miss path is one query on the (user, persona) unique index; the join on MemorySettings
    makes a user who switched memory off get nothing even if a stale document is still stored.
    Hand-written SQL because the ORM's version of the same query costs several times more in
    Python and planning.
    """
    user_id = getattr(user, "pk", user)
    persona_id = getattr(persona, "pk", persona)
    if not memory_md_cache_usable():
        return _memory_md_fetch(user_id, persona_id)
    kept = memory_md_cached(key=(user_id, persona_id), fetch=lambda: _memory_md_fetch(user_id, persona_id))
    return None if kept is None else _document_copy(kept)


def memory_md_cache_usable() -> bool:
    """Whether memory_md_get may answer from the process's cache here (on, and not in a transaction)."""
    return settings.MEMORY_MD_CACHE and not connection.in_atomic_block


def _memory_md_fetch(user_id: int, persona_id: int | None) -> MemoryDocument | None:
    with connection.cursor() as cursor:
        cursor.execute(_MEMORY_MD_GET_SQL, [user_id, persona_id, persona_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return MemoryDocument(
        id=row[0], user_id=user_id, persona_id=persona_id, content=row[1], version=row[2],
        token_count=row[3], token_budget=row[4], memory_ids=_json_list(row[5]), rendered_at=row[6],
    )


def _document_copy(kept: MemoryDocument) -> MemoryDocument:
    """A new instance of the cached one, with its own memory_ids list and model state.

    The cached instance itself is never handed out, so no caller can change what the next chat
    turn reads. Built the way unpickling builds a model (no __init__): ~1 µs instead of ~10.
    """
    document = MemoryDocument.__new__(MemoryDocument)
    document.__dict__.update(kept.__dict__)
    document._state = ModelState()
    document._state.adding, document._state.db = kept._state.adding, kept._state.db
    document.memory_ids = list(kept.memory_ids)
    return document


_MEMORY_MD_GET_SQL = f"""
    SELECT d.id, d.content, d.version, d.token_count, d.token_budget, d.memory_ids, d.rendered_at
    FROM {MemoryDocument._meta.db_table} d
    LEFT JOIN {MemorySettings._meta.db_table} s ON s.user_id = d.user_id
    WHERE d.user_id = %s
      AND (d.persona_id = %s OR (d.persona_id IS NULL AND %s::bigint IS NULL))
      AND s.enabled IS NOT FALSE
"""


def _json_list(value) -> list:
    # psycopg decodes jsonb already; a text column (another backend config) would come as str.
    return json.loads(value) if isinstance(value, str) else list(value or [])
