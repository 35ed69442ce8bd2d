"""Memory-center writes: what a user does to their own memory (judge, edit, add, confirm, forget).

Forgetting is a hard delete, at once, everywhere the words live inside memcenter: the memory row
and its embedding, its sources (quotes), its feedback, the candidates that became it or say the
same thing (in other words too), its lines in MEMORY.md (re-rendered), its DREAMS.md lines (the
rest of each night re-rendered) and the admin log's copy of its words. Keyed hashes (tombstones) of
every forgotten statement stop light and deep sleep from learning it, or a paraphrase, again.
Messages stay: they are the user's conversation, removed only by `conversation_delete`.
The turns a forgotten memory (or a dismissed candidate) came from are tombstoned too, whole and
by sentence, so recall never shows those words as an excerpt (dreaming/memory/excerpts.py).
"""
from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from chat.models import ChatSession, Persona
from dreaming.memory.context import memory_md_render_all
from dreaming.engine.voice import canonical_statement
from dreaming.models import (
    Candidate,
    Category,
    DiaryEntry,
    Feedback,
    Memory,
    MemoryDocument,
    MemorySettings,
    MemorySource,
    Tombstone,
)
from dreaming.memory.diary import diary_forget, narrative_without  # noqa: F401 (narrative_without: re-exported)
from dreaming.memory.feedback import memory_verdicts_supersede
from dreaming.memory.traces import admin_log_scrub
from dreaming.providers import ProviderUnavailable, get_embedder
from dreaming.memory.tombstones import (
    TombstoneIndex,
    tombstone_add,
    tombstone_build,
    tombstone_digest,
    tombstone_keys,
    tombstones_lift,
)
from dreaming.memory.excerpts import forgotten_turn_digests, source_turns_of_candidates, source_turns_of_memories

logger = logging.getLogger(__name__)

STATEMENT_MAX_CHARS = 500
USER_SET_CONFIDENCE = 0.95
CONFIRMED_CONFIDENCE = 0.9


@dataclass
class ForgetReceipt:
    """What a forget removed, so the page (and tests) can say exactly what happened."""

    memories: int = 0
    sources: int = 0
    feedback: int = 0
    candidates: int = 0
    diary_rewritten: int = 0
    diary_deleted: int = 0
    documents_rerendered: int = 0
    tombstones: int = 0
    # The user's turns those memories came from, now kept out of recall's excerpts (by keyed hash).
    turns_excluded: int = 0
    memory_ids: list[int] = field(default_factory=list)


def _check_owner(obj_user_id: int, by) -> None:
    # Views already fetch through ownership helpers; this keeps a wrong caller from deleting
    # another user's data through the service (API, shell, a future view).
    if obj_user_id != by.pk:
        raise PermissionDenied("That belongs to another user.")


def _clean_statement(statement: str) -> str:
    # Stored in the model's voice whatever the person typed ("I …" / "You …"); shown back as "You …".
    statement = canonical_statement(" ".join((statement or "").split()))
    if not statement:
        raise ValidationError("A memory needs a statement.")
    if len(statement) > STATEMENT_MAX_CHARS:
        raise ValidationError(f"Keep a memory under {STATEMENT_MAX_CHARS} characters.")
    return statement


def _embed_or_none(text: str) -> list[float] | None:
    # A remote embedder may be down; the memory is still saved (MEMORY.md does not need the
    # vector) and recall simply cannot find it by similarity until it is re-embedded.
    try:
        return get_embedder().embed([text], kind="document")[0]
    except ProviderUnavailable:
        logger.warning("embedder unavailable; memory saved without an embedding")
        return None


def _rerender_memory_md(*, user) -> int:
    """Re-render every MEMORY.md scope of the user now, so the chat path never serves forgotten text."""
    return len(memory_md_render_all(user=user))


# --- Forgetting -----------------------------------------------------------------------------

def _tombstone_many(*, user, statements: set[str] = frozenset(), digests: set[str] = frozenset()) -> int:
    """tombstone_add for many statements (with their paraphrase keys) or ready turn digests, in one INSERT
    (forgetting everything may mean thousands)."""
    tombstones = {t.digest: t for t in (tombstone_build(user=user, statement=s) for s in statements if s.strip())}
    for digest in digests:
        tombstones.setdefault(digest, Tombstone(user=user, digest=digest))
    Tombstone.objects.bulk_create(list(tombstones.values()), ignore_conflicts=True)
    return len(tombstones)


def _forget_memories(*, user, memories: list[Memory], receipt: ForgetReceipt) -> set[str]:
    """Delete the memories and everything that carries their words. Returns the tombstoned statements."""
    ids = [m.pk for m in memories]
    statements = {m.statement for m in memories}
    # Candidates that became these memories may be worded differently; their words go too.
    linked = Candidate.objects.filter(user=user, memory_id__in=ids)
    statements |= set(linked.values_list("statement", flat=True))
    quotes = set(MemorySource.objects.filter(memory_id__in=ids).values_list("quote", flat=True))
    quotes |= set(linked.values_list("quote", flat=True))
    # The turns they were learned from leave recall's excerpts too (read before the sources go).
    turns = source_turns_of_memories(memory_ids=ids)
    turns += source_turns_of_candidates(candidates=linked.select_related("message"))

    # Candidates saying the same thing go too: in the same words whatever became of them, and in
    # other words (a paraphrase, another language) while they are not part of another memory.
    forgotten = TombstoneIndex([
        (i, tombstone_digest(s), tombstone_keys(s))
        for i, s in enumerate(sorted(statements))
    ])
    same_statement = [
        c.pk for c in Candidate.objects.filter(user=user).only("id", "statement", "status")
        if tombstone_digest(c.statement) in forgotten
        or (c.status not in (Candidate.Status.PROMOTED, Candidate.Status.MERGED) and forgotten.matching(c.statement))
    ]
    candidates = Candidate.objects.filter(user=user).filter(Q(memory_id__in=ids) | Q(pk__in=same_statement))
    candidate_ids = list(candidates.values_list("id", flat=True))
    source_ids = list(MemorySource.objects.filter(memory_id__in=ids).values_list("id", flat=True))
    receipt.candidates += candidates.delete()[1].get("dreaming.Candidate", 0)
    receipt.sources += MemorySource.objects.filter(memory_id__in=ids).delete()[0]
    _admin_log_scrub(memory_ids=ids, candidate_ids=candidate_ids, source_ids=source_ids)
    receipt.feedback += Feedback.objects.filter(memory_id__in=ids).delete()[0]

    rewritten, deleted = diary_forget(
        user=user, memory_ids=ids, candidate_ids=candidate_ids, texts=sorted(statements | quotes)
    )
    receipt.diary_rewritten += rewritten
    receipt.diary_deleted += deleted

    # An older memory it superseded keeps the reason the model gave, which may quote the new words.
    for older in Memory.objects.filter(user=user, superseded_by_id__in=ids).exclude(pk__in=ids):
        if "superseded_reason" in older.score_breakdown:
            older.score_breakdown = {**older.score_breakdown, "superseded_reason": "superseded by a memory since forgotten"}
            older.save(update_fields=["score_breakdown", "updated_at"])
    receipt.memories += Memory.objects.filter(user=user, pk__in=ids).delete()[1].get("dreaming.Memory", 0)
    receipt.memory_ids.extend(ids)
    receipt.tombstones += _tombstone_many(user=user, statements=statements)
    _tombstone_many(user=user, digests=forgotten_turn_digests(turns=turns))
    receipt.turns_excluded += len(turns)
    return statements


def _admin_log_scrub(*, memory_ids=(), candidate_ids=(), source_ids=()) -> None:
    # Staff may have edited these rows in Django admin: its log holds their words in object_repr.
    admin_log_scrub(model=Memory, ids=memory_ids)
    admin_log_scrub(model=Candidate, ids=candidate_ids)
    admin_log_scrub(model=MemorySource, ids=source_ids)


def _merged_into(memory: Memory) -> list[Memory]:
    """Duplicates weekly consolidation merged into this memory (archived, superseded_by it): the same
    fact in other words, so they go with it. Superseded older facts ("lived in Shanghai") stay."""
    found: list[Memory] = []
    frontier = [memory.pk]
    while frontier:
        batch = list(Memory.objects.filter(
            user_id=memory.user_id, superseded_by_id__in=frontier, status=Memory.Status.ARCHIVED
        ))
        found += batch
        frontier = [m.pk for m in batch]
    return found


def memory_forget(*, memory: Memory, by, also: Sequence[Memory] = ()) -> ForgetReceipt:
    """Hard-delete one memory now, with the duplicates merged into it (see the module docstring) and
    the near-duplicates the user chose to forget with it (`also`, from memory_near_duplicates)."""
    _check_owner(memory.user_id, by)
    for other in also:
        _check_owner(other.user_id, by)
    receipt = ForgetReceipt()
    with transaction.atomic():
        doomed = {m.pk: m for m in (memory, *_merged_into(memory))}
        for other in also:
            doomed.update({m.pk: m for m in (other, *_merged_into(other))})
        _forget_memories(user=memory.user, memories=list(doomed.values()), receipt=receipt)
        receipt.documents_rerendered = _rerender_memory_md(user=memory.user)
    logger.info("memory forgotten user=%s memory=%s", memory.user_id, receipt.memory_ids)
    return receipt


def memory_forget_all(*, user, by) -> ForgetReceipt:
    """Forget everything: memories, candidates, diary, MEMORY.md documents; tombstone each statement."""
    _check_owner(user.pk, by)
    receipt = ForgetReceipt()
    with transaction.atomic():
        statements = set(Memory.objects.filter(user=user).values_list("statement", flat=True))
        statements |= set(Candidate.objects.filter(user=user).values_list("statement", flat=True))
        receipt.memory_ids = list(Memory.objects.filter(user=user).values_list("id", flat=True))
        _admin_log_scrub(
            memory_ids=receipt.memory_ids,
            candidate_ids=list(Candidate.objects.filter(user=user).values_list("id", flat=True)),
            source_ids=list(MemorySource.objects.filter(memory__user=user).values_list("id", flat=True)),
        )
        turns = source_turns_of_memories(memory_ids=receipt.memory_ids)
        turns += source_turns_of_candidates(candidates=Candidate.objects.filter(user=user).select_related("message"))
        receipt.sources = MemorySource.objects.filter(memory__user=user).delete()[0]
        receipt.feedback = Feedback.objects.filter(user=user).delete()[0]
        receipt.candidates = Candidate.objects.filter(user=user).delete()[0]
        receipt.memories = Memory.objects.filter(user=user).delete()[1].get("dreaming.Memory", 0)
        receipt.diary_deleted = DiaryEntry.objects.filter(user=user).delete()[1].get("dreaming.DiaryEntry", 0)
        MemoryDocument.objects.filter(user=user).delete()
        receipt.tombstones = _tombstone_many(user=user, statements=statements)
        _tombstone_many(user=user, digests=forgotten_turn_digests(turns=turns))
        receipt.turns_excluded = len(turns)
        # Fresh, empty documents: the chat path keeps reading a document, now one that says nothing.
        receipt.documents_rerendered = _rerender_memory_md(user=user)
    logger.info("all memory forgotten user=%s memories=%s", user.pk, receipt.memories)
    return receipt


def conversation_delete(*, session: ChatSession, by) -> ForgetReceipt:
    """Delete a conversation: its messages, the candidates heard in it, and the memories it alone taught.

    1. Memories whose every source is a message of this session are forgotten (as memory_forget).
    2. Memories with other evidence keep living but lose the quotes taken from this session.
    3. Candidates from the session go; then the session and its messages.
    """
    _check_owner(session.user_id, by)
    user = session.user
    receipt = ForgetReceipt()
    with transaction.atomic():
        touched = set(
            MemorySource.objects.filter(message__session=session).values_list("memory_id", flat=True)
        )
        with_other_evidence = set(
            MemorySource.objects.filter(memory_id__in=touched)
            .filter(Q(message__isnull=True) | ~Q(message__session=session))
            .values_list("memory_id", flat=True)
        )
        only_here = list(Memory.objects.filter(user=user, pk__in=touched - with_other_evidence))
        if only_here:
            _forget_memories(user=user, memories=only_here, receipt=receipt)
        session_sources = MemorySource.objects.filter(message__session=session)
        _admin_log_scrub(source_ids=list(session_sources.values_list("id", flat=True)))
        receipt.sources += session_sources.delete()[0]
        for memory in Memory.objects.filter(pk__in=with_other_evidence, recurrence__gt=1):
            memory.recurrence -= 1
            memory.save(update_fields=["recurrence", "updated_at"])
        heard_here = Candidate.objects.filter(user=user).filter(Q(session=session) | Q(message__session=session))
        heard_ids = list(heard_here.values_list("id", flat=True))
        _admin_log_scrub(candidate_ids=heard_ids)
        # A pending line of the diary quotes the candidate: it goes with it.
        rewritten, deleted = diary_forget(user=user, candidate_ids=heard_ids)
        receipt.diary_rewritten += rewritten
        receipt.diary_deleted += deleted
        receipt.candidates += heard_here.delete()[0]
        session.delete()
        receipt.documents_rerendered = _rerender_memory_md(user=user)
    logger.info("conversation deleted user=%s forgot=%s", user.pk, receipt.memory_ids)
    return receipt


# --- Judging, editing, adding -----------------------------------------------------------------

def feedback_record(*, memory: Memory, by, verdict: str) -> Feedback:
    """Store the user's verdict; deep sleep applies it to confidence. The latest unapplied verdict wins."""
    _check_owner(memory.user_id, by)
    if verdict not in Feedback.Verdict.values:
        raise ValidationError(f"Unknown verdict {verdict!r}; use agree, doubt or reject.")
    with transaction.atomic():
        Feedback.objects.filter(memory=memory, user=by, applied_at__isnull=True).delete()
        feedback = Feedback.objects.create(memory=memory, user=by, verdict=verdict)
        # Confidence changes at deep sleep, but MEMORY.md honours the verdict now: a rejected memory
        # leaves the chat context at once, a doubted one is marked unsure.
        _rerender_memory_md(user=memory.user)
    return feedback


def memory_update_statement(*, memory: Memory, by, statement: str, category: str | None = None) -> Memory:
    """The user rewrites a memory: it becomes user-set, is re-embedded and MEMORY.md shows the new words."""
    _check_owner(memory.user_id, by)
    statement = _clean_statement(statement)
    if category is not None and category not in Category.values:
        raise ValidationError(f"Unknown category {category!r}.")
    with transaction.atomic():
        if statement != memory.statement:
            memory.statement = statement
            memory.embedding = _embed_or_none(statement)
        if category:
            memory.category = category
        memory.user_set = True
        memory.confidence = max(memory.confidence, USER_SET_CONFIDENCE)
        memory.save()
        memory_verdicts_supersede(memory=memory)
        _rerender_memory_md(user=memory.user)
    return memory


def memory_create_by_user(
    *, user, statement: str, category: str = Category.FACT, persona: Persona | None = None,
    importance: float = 0.7,
) -> Memory:
    """A memory the user wrote by hand: user_set, confidence 0.95, embedded now."""
    statement = _clean_statement(statement)
    if category not in Category.values:
        raise ValidationError(f"Unknown category {category!r}.")
    now = timezone.now()
    with transaction.atomic():
        # The user asks us to remember what they once made us forget: their newest wish wins.
        tombstones_lift(user=user, statement=statement)
        memory = Memory.objects.create(
            user=user, persona=persona, statement=statement, category=category,
            confidence=USER_SET_CONFIDENCE, importance=importance, user_set=True,
            valid_from=now, first_seen=now, last_seen=now, recurrence=1,
            score_breakdown={"user_set": 1.0}, embedding=_embed_or_none(statement),
        )
        _rerender_memory_md(user=user)
    return memory


def candidate_confirm(*, candidate: Candidate, by) -> Memory:
    """The user says "yes, remember that": promote a pending candidate now, with its quote as source."""
    _check_owner(candidate.user_id, by)
    if candidate.status != Candidate.Status.PENDING:
        raise ValidationError("Only a pending candidate can be confirmed.")
    now = timezone.now()
    with transaction.atomic():
        embedding = candidate.embedding if candidate.embedding is not None else _embed_or_none(candidate.statement)
        memory = Memory.objects.create(
            user=candidate.user, persona=candidate.persona, statement=candidate.statement,
            category=candidate.category, confidence=CONFIRMED_CONFIDENCE, importance=candidate.importance,
            valid_from=candidate.said_at, first_seen=candidate.said_at, last_seen=candidate.said_at,
            recurrence=1, score=candidate.score or 0.0,
            score_breakdown={**(candidate.score_breakdown or {}), "confirmed_by_user": 1.0},
            embedding=embedding,
        )
        MemorySource.objects.create(
            memory=memory, message=candidate.message, quote=candidate.quote, said_at=candidate.said_at
        )
        candidate.status = Candidate.Status.PROMOTED
        candidate.memory = memory
        candidate.decided_at = now
        candidate.reason = "confirmed by the user"
        candidate.save(update_fields=["status", "memory", "decided_at", "reason"])
        _rerender_memory_md(user=candidate.user)
    return memory


def candidate_dismiss(*, candidate: Candidate, by) -> Candidate:
    """The user says "don't remember that": the candidate row is deleted and only a tombstone is kept.

    Returns the (now unsaved) candidate, with its words, for the page's answer; the database keeps
    none of them: not the statement, the quote, the embedding nor an admin log line.
    """
    _check_owner(candidate.user_id, by)
    with transaction.atomic():
        turns = source_turns_of_candidates(candidates=[candidate])  # read before the row goes
        deleted = Candidate.objects.filter(pk=candidate.pk, status=Candidate.Status.PENDING).delete()[0]
        if not deleted:
            raise ValidationError("Only a pending candidate can be dismissed.")
        tombstone_add(user=candidate.user, statement=candidate.statement)
        # "Don't remember that" covers the words too: the turn leaves recall's excerpts.
        _tombstone_many(user=candidate.user, digests=forgotten_turn_digests(turns=turns))
        _admin_log_scrub(candidate_ids=[candidate.pk])
        diary_forget(user=candidate.user, candidate_ids=[candidate.pk])
    candidate.status = Candidate.Status.DISMISSED
    return candidate


def candidates_delete(*, candidates: Sequence[Candidate]) -> int:
    """Staff deletes candidates (Django admin): the rows, their diary lines and their admin log words go."""
    by_user: dict[int, list[int]] = {}
    for candidate in candidates:
        by_user.setdefault(candidate.user_id, []).append(candidate.pk)
    deleted = 0
    with transaction.atomic():
        for user_id, ids in by_user.items():
            diary_forget(user=user_id, candidate_ids=ids)
            _admin_log_scrub(candidate_ids=ids)
            deleted += Candidate.objects.filter(pk__in=ids).delete()[0]
    return deleted


def memory_settings_set(
    *, user, enabled: bool, delete_existing: bool = False, time_zone: str | None = None
) -> MemorySettings:
    """Memory on/off. Off stops dreaming and recall; delete_existing also forgets everything now.
    time_zone ("" = the server's) decides under which date the diary files a night."""
    defaults = {"enabled": enabled}
    if time_zone is not None:
        if time_zone and time_zone not in zoneinfo.available_timezones():
            raise ValidationError(f"Unknown time zone {time_zone!r}; use an IANA name such as Asia/Shanghai.")
        defaults["time_zone"] = time_zone
    with transaction.atomic():
        memory_settings, _ = MemorySettings.objects.update_or_create(user=user, defaults=defaults)
        if not enabled and delete_existing:
            memory_forget_all(user=user, by=user)
        else:
            # The renderer decides what a disabled user's MEMORY.md says; re-render so it applies now.
            _rerender_memory_md(user=user)
    return memory_settings

