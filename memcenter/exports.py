"""Everything we hold on one user, as one JSON-ready dict (one line of `export_user`, and the
memory center's "download my data")."""
from datetime import date, datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemoryDocument, MemorySettings, MemorySource

EXPORT_FORMAT = "memcenter-user-export"
EXPORT_VERSION = 1


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _scope(persona) -> str | None:
    return persona.slug if persona is not None else None


def _source_fields(*, session: ChatSession | None, message: Message | None, quote: str) -> dict:
    return {
        "session_external_id": (session.external_id or None) if session is not None else None,
        "session_id": session.pk if session is not None else None,
        "message_external_id": (message.external_id or None) if message is not None else None,
        "message_seq": message.seq if message is not None else None,
        "quote": quote,
    }


def _sessions(user) -> list[dict]:
    sessions = (
        ChatSession.objects.filter(user=user)
        .select_related("persona")
        .prefetch_related(Prefetch("messages", queryset=Message.objects.order_by("seq")))
        .order_by("started_at", "id")
    )
    return [
        {
            "id": s.pk,
            "external_id": s.external_id or None,
            "persona": _scope(s.persona),
            "source": s.source,
            "title": s.title,
            "started_at": _iso(s.started_at),
            "last_active_at": _iso(s.last_active_at),
            "dreamed_at": _iso(s.dreamed_at),
            "triage": {"kind": s.triage_kind, "skipped": s.skipped, "reason": s.triage_reason},
            "messages": [
                {"seq": m.seq, "role": m.role, "content": m.content, "created_at": _iso(m.created_at),
                 "external_id": m.external_id or None}
                for m in s.messages.all()
            ],
        }
        for s in sessions
    ]


def _memories(user, in_memory_md: set[int]) -> list[dict]:
    memories = (
        Memory.objects.filter(user=user)
        .select_related("persona")
        .prefetch_related(
            Prefetch("sources", queryset=MemorySource.objects.select_related("message__session").order_by("said_at", "id"))
        )
        .order_by("created_at", "id")
    )
    return [
        {
            "id": m.pk,
            "statement": m.statement,
            "category": m.category,
            "confidence": m.confidence,
            "importance": m.importance,
            "status": m.status,
            "scope": _scope(m.persona),
            "user_set": m.user_set,
            "valid_from": _iso(m.valid_from),
            "valid_to": _iso(m.valid_to),
            "superseded_by": m.superseded_by_id,
            "first_seen": _iso(m.first_seen),
            "last_seen": _iso(m.last_seen),
            "recurrence": m.recurrence,
            "in_memory_md": m.pk in in_memory_md,
            "sources": [
                {**_source_fields(session=src.message.session if src.message else None, message=src.message,
                                  quote=src.quote), "said_at": _iso(src.said_at)}
                for src in m.sources.all()
            ],
        }
        for m in memories
    ]


def _candidates(user) -> list[dict]:
    candidates = (
        Candidate.objects.filter(user=user).select_related("persona", "session", "message").order_by("created_at", "id")
    )
    return [
        {
            "id": c.pk,
            "statement": c.statement,
            "category": c.category,
            "importance": c.importance,
            "status": c.status,
            "reason": c.reason,
            "scope": _scope(c.persona),
            "said_at": _iso(c.said_at),
            "memory_id": c.memory_id,
            **_source_fields(session=c.session, message=c.message, quote=c.quote),
        }
        for c in candidates
    ]


def user_export(*, user: AbstractBaseUser) -> dict:
    """Sessions with messages and triage, memories with sources and whether MEMORY.md shows them,
    candidates, diary (DREAMS.md), the current MEMORY.md per scope, feedback, and settings."""
    documents = list(MemoryDocument.objects.filter(user=user).select_related("persona").order_by("persona__slug"))
    in_memory_md = {int(pk) for doc in documents for pk in (doc.memory_ids or []) if str(pk).isdigit()}
    memory_settings = MemorySettings.objects.filter(user=user).first()
    diary = DiaryEntry.objects.filter(user=user).prefetch_related("memories").order_by("night", "created_at")
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": _iso(timezone.now()),
        "user": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": _iso(getattr(user, "date_joined", None)),
            "memory_enabled": memory_settings.enabled if memory_settings else True,
        },
        "sessions": _sessions(user),
        "memories": _memories(user, in_memory_md),
        "candidates": _candidates(user),
        "diary": [
            {"night": _iso(d.night), "narrative": d.narrative, "memory_ids": sorted(m.pk for m in d.memories.all()),
             "created_at": _iso(d.created_at)}
            for d in diary
        ],
        "memory_md": [
            {"scope": _scope(doc.persona), "content": doc.content, "version": doc.version,
             "token_count": doc.token_count, "memory_ids": doc.memory_ids, "rendered_at": _iso(doc.rendered_at)}
            for doc in documents
        ],
        "feedback": [
            {"memory_id": f.memory_id, "verdict": f.verdict, "created_at": _iso(f.created_at), "applied_at": _iso(f.applied_at)}
            for f in Feedback.objects.filter(user=user).order_by("created_at", "id")
        ],
    }
