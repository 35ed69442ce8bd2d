"""Deep sleep: nightly, per user, turn what light sleep heard into memories.

deep_sleep_user, inside one transaction holding the user's lock (dreaming.pipeline.locks):
1. apply the user's feedback since the last night (dreaming.memory.feedback);
2. gather the pending candidates (new ones and the pending pool), re-check every quote against its
   message and drop tombstoned statements;
3. cluster them by topic within scope + category (dreaming.pipeline.clustering);
4. compare each cluster with the nearest active memories of the same scope (pgvector) through the
   dreamer: new / reinforces / contradicts;
5. score each cluster (dreaming.memory.scoring) and promote, keep pending or dismiss; reinforce an existing
   memory; supersede a contradicted one with validity dates;
6. write the night into DREAMS.md (dreaming.memory.diary);
then, after commit, re-render MEMORY.md. With dry_run everything is computed and rolled back.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from chat.models import Message
from dreaming.pipeline.clustering import Cluster, candidates_cluster
from dreaming.memory.diary import diary_append, night_language
from dreaming.engine.compare import slot_keys
from dreaming.memory.context import memory_md_render_all
from dreaming.memory.feedback import feedback_apply_pending, latest_verdict
from dreaming.pipeline.locks import user_lock
from dreaming.models import Candidate, DreamRun, Feedback, Memory, MemorySettings, MemorySource, Phase
from dreaming.providers import get_dreamer, get_embedder
from dreaming.protocol import (
    CallContext,
    Comparison,
    Dreamer,
    Embedder,
    MemoryRef,
    NightChanges,
    ProviderUnavailable,
    UnusableAnswer,
)
from dreaming.pipeline.runs import run_users
from dreaming.memory.scoring import (
    ScoreInput,
    clip_confidence,
    half_life_days,
    initiative,
    score_compute,
    score_decision,
)
from dreaming.memory.tombstones import is_tombstoned, tombstoned_digests
from dreaming.engine.quotes import quote_in_message

logger = logging.getLogger(__name__)

COMPARE_BATCH = 20  # clusters per dreamer.compare call

COUNTER_NAMES = (
    "users_processed", "promoted", "reinforced", "pending", "dropped", "superseded",
    "feedback_applied", "unverified_rejected", "tombstoned_dropped",
)


@dataclass
class _Night:
    """What one user's deep sleep did: counters for the DreamRun, changes for the diary."""

    user: object
    run: DreamRun
    now: datetime
    dreamer: Dreamer
    embedder: Embedder
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTER_NAMES, 0))
    changes: NightChanges = field(default_factory=NightChanges)
    named: list[Memory] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)
    # Decided candidates and new memories' sources not yet written: a few statements per compare
    # batch instead of one per candidate and one per memory.
    decided: dict[int, Candidate] = field(default_factory=dict)
    sources: list[MemorySource] = field(default_factory=list)

    def decide(self, candidate: Candidate) -> None:
        self.decided[candidate.pk] = candidate

    def decisions_save(self) -> None:
        if self.sources:
            MemorySource.objects.bulk_create(self.sources)
            self.sources = []
        if self.decided:
            candidates_decisions_save(candidates=list(self.decided.values()))
            self.decided.clear()

    @property
    def ctx(self) -> CallContext:
        return CallContext(user_id=self.user.pk, run_id=self.run.pk, phase=Phase.DEEP)

    @property
    def changed_memories(self) -> bool:
        c = self.counters
        return bool(c["promoted"] or c["reinforced"] or c["superseded"] or c["feedback_applied"])


def users_needing_deep_sleep(*, now: datetime):
    """Users with candidates deep sleep has not seen yet, or feedback not yet applied; memory on."""
    with_new = Candidate.objects.filter(
        status=Candidate.Status.PENDING, verified=True, score__isnull=True, said_at__lte=now
    ).values("user_id")
    with_feedback = Feedback.objects.filter(applied_at__isnull=True).values("user_id")
    users = get_user_model().objects.filter(pk__in=with_new.union(with_feedback))
    return MemorySettings.exclude_off(users).order_by("pk")


def deep_sleep_user(
    *, user, now: datetime | None = None, dry_run: bool = False, dreamer: Dreamer | None = None,
    embedder: Embedder | None = None, worker: str = "",
) -> DreamRun:
    night = deep_night_runner(now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)
    return run_users(phase=Phase.DEEP, users=[user], user=user, night=night, now=now, dry_run=dry_run, worker=worker)


def deep_sleep_all(
    *, now: datetime | None = None, dry_run: bool = False, dreamer: Dreamer | None = None,
    embedder: Embedder | None = None, worker: str = "", users=None,
    progress: Callable[[int, int], None] | None = None,
) -> DreamRun:
    """One DreamRun for every user who needs a night (or the given users); one failure does not stop the rest.

    A model that is down (ProviderUnavailable) stops the walk: every next user would fail the same
    way; their candidates stay pending and the next scheduled night picks them up.
    """
    todo = users if users is not None else users_needing_deep_sleep(now=now or timezone.now())
    night = deep_night_runner(now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)
    return run_users(phase=Phase.DEEP, users=todo, night=night, now=now, dry_run=dry_run, worker=worker,
                     stop_on=(ProviderUnavailable,), progress=progress)


def deep_night_runner(*, now, dry_run, dreamer, embedder) -> Callable[..., dict[str, int]]:
    now = now or timezone.now()
    dreamer, embedder = dreamer or get_dreamer(), embedder or get_embedder()
    return lambda *, user, run: _deep_sleep_one(user=user, run=run, now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)


def _deep_sleep_one(
    *, user, run: DreamRun, now: datetime, dry_run: bool, dreamer: Dreamer, embedder: Embedder
) -> dict[str, int]:
    if not MemorySettings.is_on(user_id=user.pk):
        return {}
    night = _Night(user=user, run=run, now=now, dreamer=dreamer, embedder=embedder)
    with transaction.atomic():
        user_lock(user_id=user.pk)
        _night_feedback(night)
        candidates = _candidates_gather(night)
        clusters = candidates_cluster(candidates=candidates)
        for persona_id in sorted({c.persona_id for c in clusters}, key=lambda p: (p is not None, p or 0)):
            scope = [c for c in clusters if c.persona_id == persona_id]
            # Batches keep one compare prompt small even on a backfill's first night.
            for start in range(0, len(scope), COMPARE_BATCH):
                _scope_decide(night, scope[start : start + COMPARE_BATCH])
        night.changes.language = night_language(night.statements)
        if not dry_run:
            try:
                diary_append(user=user, run=run, now=now, changes=night.changes, memories=night.named, dreamer=dreamer)
            except UnusableAnswer:
                logger.warning("narrate gave an unusable answer for user %s; no diary entry tonight", user.pk)
        if dry_run:
            transaction.set_rollback(True)
    if not dry_run and night.changed_memories:
        memory_md_refresh(user=user)
    night.counters["users_processed"] = 1
    return night.counters


def memory_md_refresh(*, user) -> None:
    try:
        memory_md_render_all(user=user)
    except Exception:
        # The night is committed either way; a stale MEMORY.md is re-rendered by the next change.
        logger.exception("re-rendering MEMORY.md failed for user %s", user.pk)


def _night_feedback(night: _Night) -> None:
    result = feedback_apply_pending(user=night.user, now=night.now)
    night.counters["feedback_applied"] += result.applied
    night.changes.forgotten += len(result.rejected)


def _candidates_gather(night: _Night) -> list[Candidate]:
    """Pending, verified candidates up to `now`, re-verified, minus tombstoned ones; all embedded."""
    pending = list(
        Candidate.objects.select_for_update(of=("self",))
        .filter(user=night.user, status=Candidate.Status.PENDING, verified=True, said_at__lte=night.now)
        .select_related("message")
        .order_by("said_at", "pk")
    )
    digests = tombstoned_digests(user=night.user)
    usable = []
    for candidate in pending:
        if not quote_still_in_message(candidate):
            _candidate_close(night, candidate, status=Candidate.Status.REJECTED_UNVERIFIED,
                             reason="The quote is no longer found in its message.")
            night.counters["unverified_rejected"] += 1
        elif is_tombstoned(user=night.user, statement=candidate.statement, digests=digests):
            _candidate_close(night, candidate, status=Candidate.Status.DISMISSED,
                             reason="The user asked to forget this.")
            night.counters["tombstoned_dropped"] += 1
        else:
            usable.append(candidate)
    night.decisions_save()
    missing = [c for c in usable if c.embedding is None]
    if missing:
        vectors = night.embedder.embed([c.statement for c in missing], kind="document", ctx=night.ctx)
        for candidate, vector in zip(missing, vectors):
            candidate.embedding = vector
        Candidate.objects.bulk_update(missing, ["embedding"], batch_size=500)
    return usable


def quote_still_in_message(candidate: Candidate) -> bool:
    """The quote is still verbatim in the user's message (or in its masked form, which the model saw)."""
    message = candidate.message
    if message is None or message.role != Message.Role.USER:
        return False
    return quote_in_message(quote=candidate.quote, text=message.content)


_DECISIONS_SQL = f"""
UPDATE {Candidate._meta.db_table} AS c
SET status = d.status, reason = d.reason, decided_at = d.decided_at, memory_id = d.memory_id,
    score = d.score, score_breakdown = d.score_breakdown::jsonb
FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::timestamptz[], %s::bigint[], %s::float8[], %s::text[])
    AS d(id, status, reason, decided_at, memory_id, score, score_breakdown)
WHERE c.id = d.id
"""


def candidates_decisions_save(*, candidates: list[Candidate]) -> None:
    """Write the decision fields of many candidates in one statement (Django's bulk_update builds a
    CASE per field and row, which costs more Python time than the row-by-row UPDATEs it replaces)."""
    columns = list(zip(*[
        (c.pk, c.status, c.reason, c.decided_at, c.memory_id, c.score, json.dumps(c.score_breakdown))
        for c in candidates
    ]))
    with connection.cursor() as cursor:
        cursor.execute(_DECISIONS_SQL, [list(column) for column in columns])


def _candidate_close(night: _Night, candidate: Candidate, *, status: str, reason: str, memory: Memory | None = None,
                     score: float | None = None, breakdown: dict | None = None) -> None:
    candidate.status = status
    candidate.reason = reason
    candidate.decided_at = night.now
    candidate.memory = memory
    if score is not None:
        candidate.score, candidate.score_breakdown = score, breakdown or {}
    night.decide(candidate)  # written by night.decisions_save()


def _scope_decide(night: _Night, clusters: list[Cluster]) -> None:
    """Compare clusters of one scope with their nearest memories in one dreamer call, then decide each."""
    persona_id = clusters[0].persona_id
    neighbours: dict[int, Memory] = {}
    for memory in _memory_neighbours(user=night.user, persona_id=persona_id, vectors=[c.centroid for c in clusters]):
        neighbours.setdefault(memory.pk, memory)
    for memory in _memory_slot_mates(user=night.user, persona_id=persona_id, clusters=clusters):
        neighbours.setdefault(memory.pk, memory)
    comparisons: dict[int, Comparison] = {}
    if neighbours:
        refs = [MemoryRef(id=m.pk, statement=m.statement, category=m.category) for m in neighbours.values()]
        try:
            answer = night.dreamer.compare(
                statements=[c.best.statement for c in clusters], memories=refs, ctx=night.ctx
            )
        except UnusableAnswer:
            # Deciding blind could duplicate or miss a contradiction: leave them for the next night.
            logger.warning("compare gave an unusable answer for user %s; clusters wait", night.user.pk)
            return
        comparisons = {c.index: c for c in answer if 0 <= c.index < len(clusters)}
    for index, cluster in enumerate(clusters):
        comparison = comparisons.get(index)
        memory = neighbours.get(comparison.memory_id) if comparison and comparison.memory_id else None
        if memory is not None and memory.status != Memory.Status.ACTIVE:
            memory = None  # superseded earlier tonight by another cluster
        night.statements.append(cluster.best.statement)
        if comparison and memory and comparison.relation == "reinforces":
            _cluster_reinforce(night, cluster, memory)
        elif comparison and memory and comparison.relation == "contradicts":
            _cluster_new(night, cluster, contradicts=memory, reason=comparison.reason)
        else:
            _cluster_new(night, cluster)
    night.decisions_save()


_NEIGHBOURS_SQL = """
SELECT m.* FROM unnest(%s::int[], %s::text[]) AS c(idx, v)
CROSS JOIN LATERAL (
    SELECT * FROM {table}
    WHERE user_id = %s AND {persona} AND status = %s AND embedding IS NOT NULL
    ORDER BY embedding <=> c.v::vector LIMIT %s
    FOR UPDATE
) AS m
ORDER BY c.idx, m.embedding <=> c.v::vector
"""


def _memory_neighbours(*, user, persona_id: int | None, vectors: list) -> list[Memory]:
    """The nearest active memories of the scope to each vector, vector by vector (nearest first), locked;
    one statement for all the vectors of a compare batch (a memory near several comes once per vector)."""
    if not vectors:
        return []
    sql = _NEIGHBOURS_SQL.format(
        table=Memory._meta.db_table, persona="persona_id IS NULL" if persona_id is None else "persona_id = %s"
    )
    texts = ["[" + ",".join(repr(float(x)) for x in vector) + "]" for vector in vectors]
    params = [list(range(len(vectors))), texts, user.pk, *([] if persona_id is None else [persona_id]),
              Memory.Status.ACTIVE, settings.DREAM_COMPARE_NEIGHBOURS]
    return list(Memory.objects.raw(sql, params))


def _memory_slot_mates(*, user, persona_id: int | None, clusters: list[Cluster]) -> list[Memory]:
    """Active memories of the scope that fill the same slot of the same subject as a cluster ("User
    lives in Shanghai" for "User moved to Tokyo"). A contradiction is rarely similar in wording, and
    a weak embedder puts it far from the top neighbours; the slot key finds it whatever the embedder."""
    wanted = set()
    for cluster in clusters:
        for candidate in cluster.candidates:
            wanted |= slot_keys(candidate.statement)
    if not wanted:
        return []
    scope = (
        Memory.objects.select_for_update()
        .filter(user=user, persona_id=persona_id, status=Memory.Status.ACTIVE)
        .defer("embedding")
        .order_by("-last_seen", "pk")
    )
    return [memory for memory in scope if slot_keys(memory.statement) & wanted]


def _cluster_score(night: _Night, cluster: Cluster, *, sessions: int, feedback: str | None = None) -> tuple[float, dict]:
    best = cluster.best
    item = ScoreInput(
        statement=best.statement,
        category=cluster.category,
        importance=max(c.importance for c in cluster.candidates),
        user_initiated=any(c.user_initiated for c in cluster.candidates),
        initiative=max(
            initiative(user_initiated=c.user_initiated, quote=c.quote, statement=c.statement) for c in cluster.candidates
        ),
        distinct_sessions=sessions,
        last_said_at=cluster.last_said_at,
        feedback=feedback,
    )
    return score_compute(item=item, now=night.now)


def _cluster_new(night: _Night, cluster: Cluster, *, contradicts: Memory | None = None, reason: str = "") -> None:
    score, breakdown = _cluster_score(night, cluster, sessions=len(cluster.session_ids))
    decision = score_decision(score)
    new_tonight = sum(1 for c in cluster.candidates if c.score is None)
    if decision == "promote":
        memory = _memory_create(night, cluster, score=score, breakdown=breakdown)
        for candidate in cluster.candidates:
            _candidate_close(night, candidate, status=Candidate.Status.PROMOTED, memory=memory,
                             score=score, breakdown=breakdown, reason=f"Promoted with score {score:.2f}.")
        night.counters["promoted"] += 1
        night.named.append(memory)
        if contradicts is not None:
            _memory_supersede(old=contradicts, new=memory, at=cluster.first_said_at, reason=reason)
            night.counters["superseded"] += 1
            night.changes.changed.append((contradicts.statement, memory.statement))
        else:
            night.changes.learned.append(memory.statement)
        return
    if decision == "pending":
        why = f"Pending: score {score:.2f} is below the promotion threshold; waiting for it to come up again."
        if contradicts is not None:
            why += f" It would contradict memory #{contradicts.pk}."
        for candidate in cluster.candidates:
            candidate.score, candidate.score_breakdown, candidate.reason = score, breakdown, why
            night.decide(candidate)
        if new_tonight:  # the pool is re-scored every night; count and narrate only what is new
            night.counters["pending"] += new_tonight
            night.changes.pending.append(cluster.best.statement)
        return
    for candidate in cluster.candidates:
        _candidate_close(night, candidate, status=Candidate.Status.DISMISSED, score=score, breakdown=breakdown,
                         reason=f"Dismissed: score {score:.2f} is below the pending threshold"
                                f"{' (' + breakdown['vague'] + ')' if breakdown.get('vague') else ''}.")
    night.counters["dropped"] += len(cluster.candidates)


def _memory_create(night: _Night, cluster: Cluster, *, score: float, breakdown: dict) -> Memory:
    best = cluster.best
    memory = Memory.objects.create(
        user=night.user,
        persona_id=cluster.persona_id,
        statement=best.statement,
        category=cluster.category,
        importance=max(c.importance for c in cluster.candidates),
        confidence=clip_confidence(score),
        valid_from=cluster.first_said_at,
        first_seen=cluster.first_said_at,
        last_seen=cluster.last_said_at,
        recurrence=len(cluster.session_ids),
        half_life_days=half_life_days(cluster.category, statement=best.statement),
        score=score,
        score_breakdown=breakdown,
        embedding=list(best.embedding),
    )
    memory_sources_add(memory=memory, candidates=cluster.candidates, existing=[], later=night.sources)
    return memory


def _memory_supersede(*, old: Memory, new: Memory, at: datetime, reason: str) -> None:
    old.status = Memory.Status.SUPERSEDED
    old.valid_to = at
    old.superseded_by = new
    old.score_breakdown = {**old.score_breakdown, "superseded_reason": reason or "contradicted by newer evidence"}
    old.save(update_fields=["status", "valid_to", "superseded_by", "score_breakdown", "updated_at"])


def _cluster_reinforce(night: _Night, cluster: Cluster, memory: Memory) -> None:
    night.decisions_save()  # memory_session_ids and memory_sources_add read what is linked to the memory
    known_sessions = memory_session_ids(memory=memory)
    new_sessions = cluster.session_ids - known_sessions
    memory.recurrence += len(new_sessions)
    memory.confidence = clip_confidence(memory.confidence + settings.DREAM_REINFORCE_DELTA * len(new_sessions))
    memory.last_seen = max(memory.last_seen, cluster.last_said_at)
    memory.first_seen = min(memory.first_seen, cluster.first_said_at)
    score, breakdown = _cluster_score(night, cluster, sessions=memory.recurrence, feedback=latest_verdict(memory_id=memory.pk))
    memory.score = score
    memory.score_breakdown = {**breakdown, **{k: v for k, v in memory.score_breakdown.items() if k not in breakdown}}
    memory.save(update_fields=["recurrence", "confidence", "last_seen", "first_seen", "score", "score_breakdown", "updated_at"])
    memory_sources_add(memory=memory, candidates=cluster.candidates)
    for candidate in cluster.candidates:
        _candidate_close(night, candidate, status=Candidate.Status.MERGED, memory=memory, score=score,
                         breakdown=breakdown, reason=f"Reinforces memory #{memory.pk}.")
    night.counters["reinforced"] += 1
    night.named.append(memory)
    night.changes.reinforced.append(memory.statement)


def memory_session_ids(*, memory: Memory) -> set:
    """Sessions that already count towards a memory's recurrence (its candidates and its sources)."""
    from_candidates = Candidate.objects.filter(memory=memory, session__isnull=False).values_list("session_id", flat=True)
    from_sources = MemorySource.objects.filter(memory=memory, message__isnull=False).values_list("message__session_id", flat=True)
    return set(from_candidates) | set(from_sources)


def memory_sources_add(
    *, memory: Memory, candidates: list[Candidate], existing: list[MemorySource] | None = None,
    later: list[MemorySource] | None = None,
) -> None:
    """Add the candidates' quotes as sources; keep the first evidence and the newest, MAX_SOURCES in all.
    `existing=[]` for a memory created a moment ago (it has none: no need to ask); `later` collects the
    new rows for one bulk insert instead of inserting them now."""
    existing = list(memory.sources.all()) if existing is None else existing
    seen = {(s.message_id, s.quote) for s in existing}
    fresh = []
    for candidate in candidates:
        key = (candidate.message_id, candidate.quote)
        if key not in seen:
            seen.add(key)
            fresh.append(MemorySource(memory=memory, message_id=candidate.message_id, quote=candidate.quote,
                                      said_at=candidate.said_at))
    everything = sorted(existing + fresh, key=lambda s: s.said_at)
    keep = everything if len(everything) <= Memory.MAX_SOURCES else [everything[0]] + everything[-(Memory.MAX_SOURCES - 1):]
    keep_ids = {id(s) for s in keep}
    dropped = [s.pk for s in existing if id(s) not in keep_ids]
    if dropped:
        MemorySource.objects.filter(pk__in=dropped).delete()
    rows = [s for s in fresh if id(s) in keep_ids]
    if later is not None:
        later.extend(rows)
    else:
        MemorySource.objects.bulk_create(rows)
