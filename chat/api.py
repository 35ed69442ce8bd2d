"""Ingestion API: a chat product creates sessions and appends messages. Thin handlers over
chat/services.py; nothing memory-related happens here (no embedding, no model call)."""
import re
from datetime import datetime, timedelta, timezone as dt_timezone
from typing import Annotated, Any, Literal

from django.db import transaction
from django.utils import timezone
from ninja import Field, Path, Query, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import AfterValidator, BeforeValidator, StrictBool

from chat import selectors, services
from chat.models import ChatSession, Message

router = Router(tags=["ingestion"])

_EARLIEST = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
_LATEST = datetime(2200, 1, 1, tzinfo=dt_timezone.utc)
# Postgres keeps offsets up to ±15:59; Python accepts up to ±23:59.
_MAX_OFFSET = timedelta(hours=16)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


class ErrorOut(Schema):
    """Every error: `detail` is a sentence, or for a request that does not validate (422) a list of
    {type, loc, msg} naming each field that is wrong."""

    detail: str | list[dict[str, Any]]


def errors(*codes: int) -> dict[int, type[ErrorOut]]:
    """The error responses of a route for the OpenAPI schema: those of every route (a body or query
    that does not parse or validate, no or a bad key, the rate limit) plus the route's own."""
    return {code: ErrorOut for code in sorted({400, 401, 422, 429, *codes})}


def _storable_text(value: str) -> str:
    # Postgres text cannot hold NUL, and a lone surrogate cannot be encoded as UTF-8: both would
    # otherwise surface as a 500 deep inside the database driver.
    if "\x00" in value:
        raise ValueError("text must not contain NUL (\\u0000) characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (no lone surrogates)") from None
    return value


def _time_text(value: Any) -> Any:
    # pydantic would read 0 or "1700000000" as seconds since 1970: a client that sends a number
    # where a time belongs has a bug it should hear about.
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value):
        return value
    raise ValueError("must be an ISO 8601 time string such as 2026-05-01T12:00:00+02:00")


def _sane_time(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    offset = value.utcoffset()
    if offset is not None and abs(offset) >= _MAX_OFFSET:
        raise ValueError("the time's UTC offset must be within ±15:59")
    if timezone.is_naive(value):
        value = timezone.make_aware(value, dt_timezone.utc)  # documented: naive times are UTC
    if not _EARLIEST <= value < _LATEST:
        raise ValueError("time must be between 1970 and 2200")
    return value


Text = Annotated[str, AfterValidator(_storable_text)]
Time = Annotated[datetime | None, BeforeValidator(_time_text), AfterValidator(_sane_time)]
Username = Annotated[str, Field(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$",
                                examples=["alice"], description="Letters, digits and @ . + - _")]
ExternalId = Annotated[Text, Field(max_length=200, description="Your id for it; makes retries idempotent.")]
SessionId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class SessionCreateIn(Schema):
    username: Username
    create_user: StrictBool = Field(False, description="Create the user if unknown (otherwise 404); true or false, not 0/1.")
    external_id: ExternalId = ""
    persona: Annotated[str, Field(max_length=64, pattern=r"^[-a-z0-9_]*$")] = Field(
        "", description="Persona slug, created if new; empty = the assistant in general."
    )
    title: Annotated[Text, Field(max_length=200)] = ""
    started_at: Time = Field(None, description="ISO 8601; naive = UTC; default now.")


class MessageIn(Schema):
    role: Literal["user", "assistant", "system"]
    content: Annotated[Text, Field(min_length=1)]
    created_at: Time = Field(None, description="ISO 8601; naive = UTC; default now (in batch order).")
    external_id: ExternalId = ""


class MessagesAppendIn(Schema):
    messages: list[MessageIn] = Field(..., min_length=1)


class TriageOut(Schema):
    kind: str
    skipped: bool
    reason: str


class SessionOut(Schema):
    id: int
    username: str
    external_id: str
    persona: str | None
    source: str
    title: str
    started_at: datetime
    last_active_at: datetime
    dreamed_at: datetime | None
    processed_seq: int
    message_count: int
    triage: TriageOut

    @staticmethod
    def resolve_username(obj: ChatSession) -> str:
        account = getattr(obj.user, "client_account", None)  # the client's name for its user
        return account.username if account is not None else obj.user.get_username()

    @staticmethod
    def resolve_persona(obj: ChatSession) -> str | None:
        return obj.persona.slug if obj.persona_id else None

    @staticmethod
    def resolve_message_count(obj: ChatSession) -> int:
        count = getattr(obj, "message_count", None)
        return obj.messages.count() if count is None else count

    @staticmethod
    def resolve_triage(obj: ChatSession) -> dict:
        return {"kind": obj.triage_kind, "skipped": obj.skipped, "reason": obj.triage_reason}


class MessageOut(Schema):
    id: int
    seq: int
    role: str
    content: str
    created_at: datetime
    external_id: str


class SessionDetailOut(SessionOut):
    messages: list[MessageOut]
    has_more: bool

    @staticmethod
    def resolve_messages(obj: ChatSession) -> list[Message]:
        return obj.page

    @staticmethod
    def resolve_has_more(obj: ChatSession) -> bool:
        return obj.page_has_more


class AppendedOut(Schema):
    id: int
    seq: int
    external_id: str
    duplicate: bool


class AppendOut(Schema):
    session_id: int
    appended: int
    duplicates: int
    last_active_at: datetime
    messages: list[AppendedOut]


class SessionListOut(Schema):
    count: int
    items: list[SessionOut]


def _session_or_404(request, session_id: int) -> ChatSession:
    """Sessions of another client's users (or of web accounts) are as absent as ids never used."""
    session = selectors.session_get(session_id=session_id, client=request.auth.client)
    if session is None:
        raise HttpError(404, f"session {session_id} not found")
    return session


def client_user_or_404(request, username: str):
    """The key's client's user of that name; anyone else (another client's, a web account) is a 404."""
    user = services.client_user_get(client=request.auth.client, username=username)
    if user is None:
        raise HttpError(404, f"user {username!r} does not exist")
    return user


@router.post("/sessions", response={200: SessionOut, 201: SessionOut, **errors(404, 413)},
             summary="Create a session (idempotent on external_id)")
def session_create(request, payload: SessionCreateIn):
    try:
        with transaction.atomic():  # a user or persona is only created together with the session
            user = services.user_resolve(
                username=payload.username, create=payload.create_user, client=request.auth.client
            )
            persona = services.persona_get_or_create(slug=payload.persona) if payload.persona else None
            session, created = services.session_create(
                user=user, external_id=payload.external_id, persona=persona, title=payload.title,
                started_at=payload.started_at,
            )
    except services.UnknownUser as exc:
        raise HttpError(404, str(exc))
    except ValueError as exc:
        raise HttpError(422, str(exc))
    return Status(201 if created else 200, selectors.session_get(session_id=session.pk))


@router.post("/sessions/{session_id}/messages", response={200: AppendOut, **errors(404, 413)},
             summary="Append messages (idempotent on external_id)")
def messages_append(request, session_id: SessionId, payload: MessagesAppendIn):
    session = _session_or_404(request, session_id)
    batch = [services.NewMessage(m.role, m.content, m.created_at, m.external_id) for m in payload.messages]
    try:
        services.messages_check_limits(messages=batch)
    except services.PayloadTooLarge as exc:
        raise HttpError(413, str(exc))
    result = services.messages_append(session=session, messages=batch)
    return {
        "session_id": session.pk,
        "appended": len(result.appended),
        "duplicates": len(result.duplicates),
        "last_active_at": result.session.last_active_at,
        "messages": [
            {"id": m.pk, "seq": m.seq, "external_id": m.external_id, "duplicate": duplicate}
            for m, duplicate in result.outcome
        ],
    }


@router.get("/sessions/{session_id}", response={200: SessionDetailOut, **errors(404)}, summary="Read a session with its messages")
def session_read(
    request,
    session_id: SessionId,
    after_seq: Annotated[int, Query(ge=0, le=2**31)] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
):
    session = _session_or_404(request, session_id)
    messages: list[Message] = selectors.session_messages(session=session, after_seq=after_seq, limit=limit + 1)
    session.page, session.page_has_more = messages[:limit], len(messages) > limit
    return session


@router.get("/users/{username}/sessions", response={200: SessionListOut, **errors(404)}, summary="List a user's sessions, most recent first")
def sessions_list(
    request,
    username: Annotated[str, Path(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")],
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
):
    user = client_user_or_404(request, username)
    sessions = selectors.sessions_for_user(user=user)
    return {"count": sessions.count(), "items": list(sessions[offset : offset + limit])}
