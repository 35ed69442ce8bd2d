"""Writes on the chat side: sessions, messages, API keys.

Nothing here embeds text or calls a model: the chat path must stay fast and cheap. Memory is made
later, by light sleep, from what these functions store.
"""
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from chat.models import ApiKey, ChatSession, Client, ClientUser, Message, Persona

# Messages without a time are spaced this far apart so their order survives any sort by time.
FILLED_TIME_STEP = timedelta(milliseconds=1)


class UnknownUser(LookupError):
    pass


class PayloadTooLarge(ValueError):
    pass


@dataclass(frozen=True)
class NewMessage:
    role: str
    content: str
    created_at: datetime | None = None
    external_id: str = ""


@dataclass
class AppendResult:
    session: ChatSession
    appended: list[Message] = field(default_factory=list)
    duplicates: list[Message] = field(default_factory=list)
    # In batch order: (the stored message, whether this entry was a duplicate of one already there).
    outcome: list[tuple[Message, bool]] = field(default_factory=list)


@dataclass(frozen=True)
class ImportResult:
    session: ChatSession
    created: bool
    appended: int
    duplicates: int


@dataclass(frozen=True)
class ApiKeyUse:
    key: ApiKey
    window_count: int
    retry_after: int

    @property
    def over_limit(self) -> bool:
        return self.window_count > settings.API_RATE_LIMIT_PER_MINUTE


# --- users and personas --------------------------------------------------------------------

def user_resolve(*, username: str, create: bool = False, client: Client | None = None) -> AbstractBaseUser:
    """The user a client names, found only among that client's users and created (without a usable
    password, under an internal account name) only when asked. Without a client (staff importing for
    a web account) the name is the account's own username."""
    if client is not None:
        return _client_user_resolve(client=client, username=username, create=create)
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    if not create:
        raise UnknownUser(f"user {username!r} does not exist (send create_user: true to create it)")
    _username_check(username)
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username)
    except IntegrityError:  # created by a concurrent request a moment ago
        return User.objects.get(username=username)


def _username_check(username: str) -> None:
    candidate = get_user_model()(username=username)
    try:
        candidate.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as exc:
        raise ValueError(f"invalid username {username!r}: {' '.join(exc.message_dict.get('username', exc.messages))}")


def _client_user_resolve(*, client: Client, username: str, create: bool) -> AbstractBaseUser:
    account = ClientUser.objects.select_related("user").filter(client=client, username=username).first()
    if account is not None:
        return account.user
    if not create:
        raise UnknownUser(f"user {username!r} does not exist (send create_user: true to create it)")
    _username_check(username)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=ClientUser.account_username(client=client, username=username)
            )
            ClientUser.objects.create(client=client, username=username, user=user)
            return user
    except IntegrityError:  # created by a concurrent request a moment ago
        return ClientUser.objects.select_related("user").get(client=client, username=username).user


def client_user_get(*, client: Client, username: str) -> AbstractBaseUser | None:
    account = ClientUser.objects.select_related("user").filter(client=client, username=username).first()
    return account.user if account is not None else None


def client_get_or_create(*, name: str) -> Client:
    name = name.strip()
    if not name or len(name) > 120:
        raise ValueError("a client needs a name of 1 to 120 characters")
    return Client.objects.get_or_create(name=name)[0]


def persona_get_or_create(*, slug: str) -> Persona:
    if not slug or slugify(slug) != slug or len(slug) > 64:
        raise ValueError(f"invalid persona {slug!r}: use a lowercase slug like 'mika' (letters, digits, -, _)")
    persona, _ = Persona.objects.get_or_create(slug=slug, defaults={"name": slug.replace("-", " ").title()})
    return persona


# --- sessions and messages -----------------------------------------------------------------

def session_create(
    *,
    user: AbstractBaseUser,
    external_id: str = "",
    persona: Persona | None = None,
    title: str = "",
    started_at: datetime | None = None,
    source: str = ChatSession.Source.API,
    now: datetime | None = None,
) -> tuple[ChatSession, bool]:
    """Create a session, or return the user's existing one with that external_id (retries are safe)."""
    now = now or timezone.now()
    started_at = started_at or now
    defaults = {"persona": persona, "title": title, "started_at": started_at, "last_active_at": started_at, "source": source}
    if not external_id:
        return ChatSession.objects.create(user=user, **defaults), True
    return ChatSession.objects.get_or_create(user=user, external_id=external_id, defaults=defaults)


def message_times_fill(
    times: list[datetime | None], *, start: datetime | None = None, now: datetime | None = None
) -> list[datetime]:
    """Give every message a time, keeping the given ones and the order.

    A missing time follows the previous message by one step; missing times before the first known
    one precede it. With no times at all they start at `start` if known, else they end at `now`.
    """
    now = now or timezone.now()
    known = [i for i, t in enumerate(times) if t is not None]
    if not known:
        anchor = start if start is not None else now - FILLED_TIME_STEP * (len(times) - 1)
        return [anchor + FILLED_TIME_STEP * i for i in range(len(times))]
    first = known[0]
    filled: list[datetime] = []
    for i, given in enumerate(times):
        if given is not None:
            filled.append(given)
        elif i < first:
            filled.append(times[first] - FILLED_TIME_STEP * (first - i))
        else:
            filled.append(filled[-1] + FILLED_TIME_STEP)
    return filled


def message_check_size(*, content: str, where: str = "the message") -> None:
    """The one size limit on a message, whichever way it comes in (API, import, chat page)."""
    if len(content) > settings.API_MAX_MESSAGE_CHARS:
        raise PayloadTooLarge(
            f"{where} has {len(content)} characters; the limit is "
            f"{settings.API_MAX_MESSAGE_CHARS} (API_MAX_MESSAGE_CHARS)"
        )


def messages_check_sizes(*, messages: list[NewMessage], label: str = "message {index}") -> None:
    for index, message in enumerate(messages):
        message_check_size(content=message.content, where=label.format(index=index))


def messages_check_limits(*, messages: list[NewMessage]) -> None:
    if len(messages) > settings.API_MAX_MESSAGES_PER_REQUEST:
        raise PayloadTooLarge(
            f"{len(messages)} messages in one request; the limit is {settings.API_MAX_MESSAGES_PER_REQUEST} "
            "(API_MAX_MESSAGES_PER_REQUEST): send them in smaller batches"
        )
    messages_check_sizes(messages=messages)


def messages_append(
    *, session: ChatSession, messages: list[NewMessage], now: datetime | None = None, start: datetime | None = None
) -> AppendResult:
    """Append a batch in order. Idempotent on external_id: a message the session already holds is
    returned as a duplicate, not stored twice. Updates last_active_at; never embeds or calls a model.

    The session row is locked for the batch, so concurrent appends get consecutive seqs instead of
    colliding, and light sleep (which only reads up to its processed_seq) is not disturbed.
    """
    times = message_times_fill([m.created_at for m in messages], start=start, now=now)
    result = AppendResult(session=session)
    with transaction.atomic():
        locked = ChatSession.objects.select_for_update().get(pk=session.pk)
        last = locked.messages.order_by("-seq").values_list("seq", flat=True).first() or 0
        wanted_ids = {m.external_id for m in messages if m.external_id}
        existing = {m.external_id: m for m in locked.messages.filter(external_id__in=wanted_ids)} if wanted_ids else {}
        rows = []
        for message, created_at in zip(messages, times):
            if message.external_id and message.external_id in existing:
                result.duplicates.append(existing[message.external_id])
                result.outcome.append((existing[message.external_id], True))
                continue
            last += 1
            row = Message(
                session=locked, seq=last, role=message.role, content=message.content,
                created_at=created_at, external_id=message.external_id,
            )
            rows.append(row)
            result.outcome.append((row, False))
            if message.external_id:
                existing[message.external_id] = row  # a repeat inside the same batch is a duplicate too
        if rows:
            Message.objects.bulk_create(rows)
            newest = max(r.created_at for r in rows)
            if newest > locked.last_active_at:
                locked.last_active_at = newest
            locked.save(update_fields=["last_active_at"])
        result.appended = rows
        result.session = locked
    return result


def session_import(
    *,
    user: AbstractBaseUser,
    messages: list[NewMessage],
    external_id: str = "",
    persona_slug: str = "",
    title: str = "",
    started_at: datetime | None = None,
    now: datetime | None = None,
) -> ImportResult:
    """Import one conversation: create or find the session, append the messages it lacks."""
    now = now or timezone.now()
    times = message_times_fill([m.created_at for m in messages], start=started_at, now=now)
    messages = [NewMessage(m.role, m.content, t, m.external_id) for m, t in zip(messages, times)]
    with transaction.atomic():
        persona = persona_get_or_create(slug=persona_slug) if persona_slug else None
        session, created = session_create(
            user=user, external_id=external_id, persona=persona, title=title[:200],
            started_at=started_at or min(times), source=ChatSession.Source.IMPORT, now=now,
        )
        if created:
            # A new session starts idle at its first message; appending moves it to its last one.
            ChatSession.objects.filter(pk=session.pk).update(last_active_at=min(times))
            session.last_active_at = min(times)
        appended = messages_append(session=session, messages=messages, now=now)
    return ImportResult(
        session=appended.session, created=created, appended=len(appended.appended), duplicates=len(appended.duplicates)
    )


@dataclass(frozen=True)
class SessionToImport:
    user: AbstractBaseUser
    messages: list[NewMessage]
    external_id: str
    persona: Persona | None = None
    title: str = ""
    started_at: datetime | None = None


def sessions_import(*, sessions: list[SessionToImport], now: datetime | None = None) -> list[ImportResult]:
    """Import many conversations in one transaction, with the same outcome as `session_import` on
    each in turn, in a fixed number of statements: existing sessions are found (and locked) with
    one query, their known message ids with another, then new sessions and all new messages are
    written with bulk inserts.

    Every session needs an external_id, each (user, external_id) at most once in the batch. A
    session created meanwhile by someone else raises IntegrityError (the whole batch is rolled
    back; the caller retries it one session at a time)."""
    now = now or timezone.now()
    keys = [(s.user.pk, s.external_id) for s in sessions]
    if any(not external_id for _, external_id in keys) or len(set(keys)) != len(keys):
        raise ValueError("sessions_import needs distinct, non-empty external ids per user")
    for s in sessions:
        messages_check_sizes(messages=s.messages, label="messages[{index}].content")
    times = [message_times_fill([m.created_at for m in s.messages], start=s.started_at, now=now) for s in sessions]
    with transaction.atomic():
        found = {
            (row.user_id, row.external_id): row
            for row in ChatSession.objects.select_for_update().filter(
                user_id__in={k[0] for k in keys}, external_id__in={k[1] for k in keys}
            ).order_by("pk")
        }
        existing = [found[k] for k in keys if k in found]
        last_seq = dict(
            Message.objects.filter(session__in=existing).values("session_id").annotate(m=Max("seq")).values_list("session_id", "m")
        ) if existing else {}
        wanted = {m.external_id for k, s in zip(keys, sessions) if k in found for m in s.messages if m.external_id}
        known = set(
            Message.objects.filter(session__in=existing, external_id__in=wanted).values_list("session_id", "external_id")
        ) if wanted else set()
        sessions_rows = [
            found.get(key) or ChatSession(
                user=s.user, external_id=s.external_id, persona=s.persona, title=s.title[:200],
                started_at=s.started_at or min(t), last_active_at=min(t), source=ChatSession.Source.IMPORT,
            )
            for key, s, t in zip(keys, sessions, times)
        ]
        rows, results, moved = [], [], []
        for session, s, t in zip(sessions_rows, sessions, times):
            appended = _messages_new(session=session, messages=s.messages, times=t,
                                     last=last_seq.get(session.pk, 0), known=known)
            newest = max((m.created_at for m in appended), default=session.last_active_at)
            if newest > session.last_active_at:
                session.last_active_at = newest  # a new session starts idle at its first message, ends at its last
                if session.pk is not None:
                    moved.append(session)
            rows += appended
            results.append(ImportResult(
                session=session, created=session.pk is None, appended=len(appended),
                duplicates=len(s.messages) - len(appended),
            ))
        ChatSession.objects.bulk_create([session for session in sessions_rows if session.pk is None])
        ChatSession.objects.bulk_update(moved, ["last_active_at"], batch_size=500)
        Message.objects.bulk_create(rows, batch_size=2000)
    return results


# --- API keys --------------------------------------------------------------------------------

def _messages_new(
    *, session: ChatSession, messages: list[NewMessage], times: list[datetime], last: int, known: set[tuple[int, str]]
) -> list[Message]:
    """The rows to insert for `messages`: those not stored yet (by external id), numbered after `last`."""
    seen, appended = set(), []
    for message, created_at in zip(messages, times):
        if message.external_id:
            if (session.pk, message.external_id) in known or message.external_id in seen:
                continue  # already stored, or a repeat inside the same conversation
            seen.add(message.external_id)
        last += 1
        appended.append(Message(
            session=session, seq=last, role=message.role, content=message.content,
            created_at=created_at, external_id=message.external_id,
        ))
    return appended


def api_key_create(*, name: str, client_name: str = "") -> tuple[ApiKey, str]:
    """A new key of a client (created if missing; by default the client is named like the key).
    The secret is returned once and only its SHA-256 is stored."""
    name = name.strip()
    if not name:
        raise ValueError("an API key needs a name")
    if ApiKey.objects.filter(name=name).exists():
        raise ValueError(f"an API key named {name!r} already exists (names stay unique even after revoking)")
    with transaction.atomic():
        client = client_get_or_create(name=client_name or name)
        secret = ApiKey.generate_secret()
        key = ApiKey.objects.create(client=client, name=name, prefix=secret[:8], hashed_key=ApiKey.hash(secret))
    return key, secret


def api_key_revoke(*, name: str, now: datetime | None = None) -> ApiKey:
    key = ApiKey.objects.filter(name=name).first()
    if key is None:
        raise ValueError(f"no API key named {name!r}")
    if key.revoked_at is None:
        key.revoked_at = now or timezone.now()
        key.save(update_fields=["revoked_at"])
    return key


_USE_SQL = f"""
UPDATE {ApiKey._meta.db_table}
SET last_used_at = t.now,
    rate_window_count = CASE WHEN rate_window_start = date_trunc('minute', t.now) THEN rate_window_count + 1 ELSE 1 END,
    rate_window_start = date_trunc('minute', t.now)
FROM (SELECT COALESCE(%s::timestamptz, statement_timestamp()) AS now) AS t
WHERE hashed_key = %s AND revoked_at IS NULL
RETURNING id, rate_window_count,
    CEIL(EXTRACT(EPOCH FROM (rate_window_start + interval '1 minute' - t.now)))::int
"""


def api_key_use(*, secret: str, now: datetime | None = None) -> ApiKeyUse | None:
    """Authenticate a secret and count the request in its key's one-minute window.

    One UPDATE … RETURNING does the lookup, last_used_at and the counter, so concurrent requests on
    any number of web workers count exactly (the row lock serializes them). Refused requests count
    too: a client that keeps hammering stays refused until the window ends. None = unknown or
    revoked key. Time comes from the database unless `now` is given (tests).
    """
    with connection.cursor() as cursor:
        cursor.execute(_USE_SQL, [now, ApiKey.hash(secret)])
        row = cursor.fetchone()
    if row is None:
        return None
    key_id, count, retry_after = row
    return ApiKeyUse(key=ApiKey.objects.select_related("client").get(pk=key_id), window_count=count, retry_after=max(1, retry_after))
