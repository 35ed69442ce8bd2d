"""Memory-center reads: the memory list with everything a card shows, in a fixed number of queries."""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, prefetch_related_objects
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Substr
from pgvector.django import CosineDistance

from chat.models import ChatSession, Message, Persona
from dreaming.engine.kinds import words_meaning
from dreaming.memory.salient import near_duplicate, salient_units
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemoryDocument, MemorySettings, MemorySource

MEMORY_SORTS = {
    "confidence": ("-confidence", "-last_seen", "-id"),
    "recent": ("-last_seen", "-id"),
    "importance": ("-importance", "-confidence", "-id"),
}
PROFILE_SCOPE = "profile"
# Search by meaning keeps memories at most this cosine distance from the query (similarity ≥ 0.35):
# "dog" finds "User has a corgi named Mochi" with a semantic embedder, and unrelated rows stay out.
MEANING_MAX_DISTANCE = 0.65
MEANING_MAX_RESULTS = 10


def memory_list(
    *, user, status: str | None = Memory.Status.ACTIVE, category: str | None = None,
    scope: str | None = None, q: str | None = None, sort: str = "confidence",
) -> QuerySet[Memory]:
    """The user's memories, filtered; each with its sources, older versions and pending verdict prefetched.

    scope: None = all, "profile" = shared profile, or a persona id (as text).
    """
    memories = Memory.objects.filter(user=user)
    if status:
        memories = memories.filter(status=status)
    if category:
        memories = memories.filter(category=category)
    if scope == PROFILE_SCOPE:
        memories = memories.filter(persona__isnull=True)
    elif scope:
        memories = memories.filter(persona_id=int(scope)) if scope.isdigit() else memories.none()
    if q:
        memories = memories.filter(statement__icontains=q)
    # The vectors are never shown; leaving them out keeps a page of 25 cards from hauling 25 embeddings.
    return memories.select_related("persona").defer("embedding", "recall_key").order_by(
        *MEMORY_SORTS.get(sort, MEMORY_SORTS["confidence"])
    )


def memory_search_by_meaning(*, memories: QuerySet[Memory], q: str) -> QuerySet[Memory]:
    """The memories closest in meaning to `q` (the configured embedder), nearest first; none if it is down.

    Used when no statement contains the words: the list's filters still apply (pass memory_list
    without q), and a remote embedder that is unavailable gives an empty result, not an error page.
    """
    from dreaming.providers import ProviderUnavailable, get_embedder

    try:
        vector = get_embedder().embed([q], kind="query")[0]
    except ProviderUnavailable:
        return memories.none()
    return (
        memories.filter(embedding__isnull=False).annotate(distance=CosineDistance("embedding", list(vector)))
        .filter(distance__lte=MEANING_MAX_DISTANCE).order_by("distance", "-id")[:MEANING_MAX_RESULTS]
    )


def concept_regex(q: str) -> str | None:
    """A Postgres regular expression for the statements about what `q` names (engine/kinds.py: "dog" is
    about a corgi, "宠物" about every pet), in either language; None when `q` names nothing known."""
    words = words_meaning(q)
    if not words:
        return None
    english = "|".join(re.escape(w) for w in words if w.isascii())
    # \m \M: word boundaries for English words (with a plural s); Chinese has none, a word is a substring.
    parts = ([rf"\m(?:{english})(?:e?s)?\M"] if english else []) + [re.escape(w) for w in words if not w.isascii()]
    return "|".join(parts)


def memory_find(*, user, q: str | None = None, **filters) -> tuple[QuerySet[Memory], bool]:
    """memory_list; when no statement contains the words of `q`, the memories about what it means.

    By meaning: the statements that name the query's concept or one of its kinds (works offline, with
    the hashing embedder), together with the nearest by the embedder (a semantic one finds what the
    lexicon does not know). Returns the memories and whether they were found by meaning (the page says so).
    """
    found = memory_list(user=user, q=q, **filters)
    if not q or found.exists():
        return found, False
    everything = memory_list(user=user, **filters)
    nearest = memory_search_by_meaning(memories=everything, q=q)
    pattern = concept_regex(q)
    if pattern is None:
        return nearest, True
    nearest_ids = list(nearest.values_list("pk", flat=True))
    return everything.filter(Q(statement__iregex=pattern) | Q(pk__in=nearest_ids)), True


def _card_prefetches() -> tuple[Prefetch, ...]:
    """What a memory card needs besides its own row: sources, superseded history, the pending verdict."""
    return (
        Prefetch(
            "sources",
            queryset=MemorySource.objects.select_related("message").only(
                "id", "memory_id", "quote", "said_at", "message_id",
                "message__id", "message__session_id", "message__seq",
            ),
        ),
        Prefetch("supersedes", queryset=Memory.objects.only(
            "id", "statement", "valid_from", "valid_to", "superseded_by_id"
        ).order_by("-valid_to"), to_attr="older_versions"),
        Prefetch("feedback", queryset=Feedback.objects.filter(applied_at__isnull=True), to_attr="pending_feedback"),
    )


def memory_list_prefetch(memories) -> QuerySet[Memory]:
    """The memories with everything their cards show besides their own rows."""
    return memories.prefetch_related(*_card_prefetches())


def memory_cards_prefetch(memories: list[Memory]) -> None:
    """memory_list_prefetch for memories already loaded (the cards the card cache did not have)."""
    prefetch_related_objects(memories, *_card_prefetches())


# What a card shows besides its own row, as one short text per memory computed by Postgres: a
# digest of its sources (with their message's place), of its older versions, its pending verdicts,
# and whether it is in a MEMORY.md. The card cache (memcenter/cards.py) checks a card against it
# without loading those rows. format() keeps a NULL's place (as ''), so no two states read alike.
CARD_STAMP_SQL = """format('%%s/%%s/%%s',
  (SELECT md5(string_agg(format('%%s:%%s:%%s:%%s:%%s:%%s', s.id, s.quote, s.said_at, s.message_id, m.session_id, m.seq),
                         chr(30) ORDER BY s.id))
     FROM dreaming_memorysource s LEFT JOIN chat_message m ON m.id = s.message_id WHERE s.memory_id = dreaming_memory.id),
  (SELECT md5(string_agg(format('%%s:%%s:%%s', o.id, o.statement, o.valid_to), chr(30) ORDER BY o.id))
     FROM dreaming_memory o WHERE o.superseded_by_id = dreaming_memory.id),
  (SELECT string_agg(format('%%s:%%s', f.id, f.verdict), ',' ORDER BY f.id)
     FROM dreaming_feedback f WHERE f.memory_id = dreaming_memory.id AND f.applied_at IS NULL))"""
IN_MEMORY_MD_SQL = """EXISTS (SELECT 1 FROM dreaming_memorydocument d
  WHERE d.user_id = dreaming_memory.user_id AND d.memory_ids @> to_jsonb(dreaming_memory.id))"""


def memory_card_stamps(memories: list[Memory]) -> None:
    """Set `card_stamp` (CARD_STAMP_SQL) and `in_memory_md` on each of a page's memories, in one query.

    A query of its own rather than an annotation of the page's: Postgres would compute the stamps of
    every row an OFFSET skips (3,000 of them on page 120).
    """
    stamps = {
        pk: (stamp, in_md) for pk, stamp, in_md in Memory.objects.filter(pk__in=[m.pk for m in memories])
        .annotate(card_stamp=RawSQL(CARD_STAMP_SQL, ()), in_memory_md=RawSQL(IN_MEMORY_MD_SQL, ()))
        .values_list("pk", "card_stamp", "in_memory_md")
    }
    for memory in memories:
        memory.card_stamp, memory.in_memory_md = stamps.get(memory.pk, ("", False))


def memory_ids_in_documents(*, user) -> set[int]:
    """Ids of the memories that are in one of the user's MEMORY.md documents right now (one query)."""
    ids: set[int] = set()
    for memory_ids in MemoryDocument.objects.filter(user=user).values_list("memory_ids", flat=True):
        ids.update(int(i) for i in memory_ids or [])
    return ids


def memory_scopes(*, user) -> list[Persona]:
    """Personas this user has memories, conversations or a MEMORY.md with (the profile is always there)."""
    return list(Persona.objects.filter(
        Q(id__in=Memory.objects.filter(user=user).values("persona_id"))
        | Q(id__in=ChatSession.objects.filter(user=user).values("persona_id"))
        | Q(id__in=MemoryDocument.objects.filter(user=user).values("persona_id"))
    ).order_by("name"))


def candidates_pending(*, user) -> QuerySet[Candidate]:
    """Things deep sleep was not sure enough about: the user may confirm or dismiss them."""
    return (
        Candidate.objects.filter(user=user, status=Candidate.Status.PENDING)
        .select_related("persona", "message")
        .only("id", "user_id", "quote", "statement", "category", "importance", "score", "said_at",
              "created_at", "persona__name", "message__id", "message__session_id", "message__seq")
        .order_by("-said_at", "-id")
    )


def memory_near_duplicates(*, memory: Memory) -> list[Memory]:
    """The user's other memories that say nearly the same thing, in any wording or language: what the
    forget step offers to forget too ("oat latte every morning" and "用户每天早上都喝燕麦拿铁")."""
    wanted = salient_units(memory.statement)
    others = (
        Memory.objects.filter(user_id=memory.user_id).exclude(pk=memory.pk)
        .exclude(status=Memory.Status.SUPERSEDED).only("id", "statement", "status").order_by("pk")
    )
    return [other for other in others if near_duplicate(wanted, salient_units(other.statement))]


def memory_time_zone(*, user) -> str:
    """The user's chosen IANA zone name, "" for the server's."""
    return MemorySettings.objects.filter(user=user).values_list("time_zone", flat=True).first() or ""


def forget_all_counts(*, user) -> dict[str, int]:
    """What "forget everything" would delete, for its confirmation step."""
    return {
        "memories": Memory.objects.filter(user=user).count(),
        "candidates": Candidate.objects.filter(user=user, status=Candidate.Status.PENDING).count(),
        "diary": DiaryEntry.objects.filter(user=user).count(),
    }


def diary_entries(*, user) -> QuerySet[DiaryEntry]:
    return DiaryEntry.objects.filter(user=user).order_by("-night", "-created_at")


def diary_markdown(*, user) -> str:
    """DREAMS.md: every diary entry, newest first, as one Markdown file."""
    parts = ["# DREAMS.md", ""]
    last_night = None
    for entry in diary_entries(user=user):
        # One heading per night, even for nights written as several entries before they were merged.
        if entry.night != last_night:
            parts += [f"## {entry.night.isoformat()}", ""]
            last_night = entry.night
        parts += [entry.narrative.strip(), ""]
    return "\n".join(parts).rstrip() + "\n"


def sessions_for_user(*, user) -> QuerySet[ChatSession]:
    """The user's conversations, newest first, each with its message count, first user line (for an
    untitled one) and how many memories it taught."""
    first_line = Message.objects.filter(session=OuterRef("pk"), role=Message.Role.USER).order_by("seq").values("content")[:1]
    taught = (
        MemorySource.objects.filter(message__session=OuterRef("pk")).order_by().values("message__session")
        .annotate(n=Count("memory_id", distinct=True)).values("n")
    )
    return (
        ChatSession.objects.filter(user=user).select_related("persona")
        .annotate(
            message_count=Count("messages"),
            first_user_line=Substr(Subquery(first_line), 1, 200),
            taught_count=Coalesce(Subquery(taught), 0),
        ).order_by("-last_active_at")
    )


@dataclass(frozen=True)
class Taught:
    memory: Memory
    only_here: bool  # every quote of it comes from this conversation: deleting it forgets the memory


def session_taught(*, session: ChatSession) -> list[Taught]:
    """The memories with a quote from this conversation; whether it is their only evidence (2 queries)."""
    memories = list(
        Memory.objects.filter(user_id=session.user_id, sources__message__session=session).distinct()
        .defer("embedding").order_by("-confidence", "pk")
    )
    elsewhere = set(
        MemorySource.objects.filter(memory__in=memories)
        .filter(Q(message__isnull=True) | ~Q(message__session=session)).values_list("memory_id", flat=True)
    )
    return [Taught(memory=m, only_here=m.pk not in elsewhere) for m in memories]


def session_excerpt(*, session: ChatSession, around_seq: int | None, radius: int = 8) -> QuerySet[Message]:
    """The messages of a session, or the window around one message when given."""
    messages = session.messages.order_by("seq")
    if around_seq is not None:
        messages = messages.filter(seq__gte=around_seq - radius, seq__lte=around_seq + radius)
    return messages

