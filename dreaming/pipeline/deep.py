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
The compare questions are asked before the transaction too (`_night_rehearse`, dreaming.pipeline.
deep_compare), so the model is not awaited while the user's rows are locked; the writes of a batch
of clusters go out together (dreaming.pipeline.night_writes).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from chat.models import Message
from dreaming.engine.endings import ended_in, ends_something
from dreaming.engine.jobs_left import job_left
from dreaming.engine.quotes import quote_in_message
from dreaming.memory.context import memory_md_render_all
from dreaming.memory.diary import DiaryLines, diary_append, night_language
from dreaming.memory.feedback import feedback_apply_pending
from dreaming.memory.scoring import (
    ScoreInput,
    clip_confidence,
    half_life_days,
    initiative,
    score_compute,
    score_decision,
)
from dreaming.memory.tombstones import is_tombstoned, tombstoned_digests
from dreaming.models import Candidate, DreamRun, Feedback, Memory, MemorySettings, Phase
from dreaming.pipeline.clustering import Cluster, candidates_cluster
from dreaming.pipeline.deep_compare import ScopeMemories, batch_neighbours, compare_key, scope_compare
from dreaming.pipeline.locks import user_lock
from dreaming.pipeline.named_outcomes import outcome_statement
from dreaming.pipeline.night_writes import NightWrites, candidates_embeddings_save
from dreaming.pipeline.plans import ActivePlans, plan_sources_carry, plans_settled_by
from dreaming.pipeline.reinforce import Reinforced, memory_sources_merge
from dreaming.pipeline.runs import run_users
from dreaming.protocol import CallContext, Comparison, Dreamer, Embedder, NightChanges, ProviderUnavailable
from dreaming.providers import get_dreamer, get_embedder
from dreaming.providers.accounting import llm_calls_survive_rollback
from dreaming.providers.embedding_space import embedding_space_problem

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
    diary: DiaryLines = field(default_factory=DiaryLines)
    named: list[Memory] = field(default_factory=list)
    # Compare answers asked for before the transaction, by their exact question (deep_compare.compare_key).
    rehearsed: dict[tuple, list[Comparison]] = field(default_factory=dict)
    statements: list[str] = field(default_factory=list)
    writes: NightWrites = field(default_factory=NightWrites)  # flushed once per compare batch
    plans: ActivePlans = field(init=False)
    memories: ScopeMemories = field(init=False)  # the scopes' active memories, read once a night

    def __post_init__(self) -> None:
        self.plans = ActivePlans(user=self.user, unwritten=lambda: self.writes.memories)
        self.memories = ScopeMemories(user=self.user)

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
    return run_users(phase=Phase.DEEP, users=[user], user=user, night=night, now=now, dry_run=dry_run, worker=worker,
                     refusal=embedding_space_problem)


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
                     stop_on=(ProviderUnavailable,), progress=progress, refusal=embedding_space_problem)


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
    if not dry_run and _awaits_network(dreamer, embedder):
        _night_rehearse(night)  # the model calls, without holding any row lock
    with llm_calls_survive_rollback(), transaction.atomic():
        user_lock(user_id=user.pk)
        _night_feedback(night)
        for scope in _scopes(candidates_cluster(candidates=_candidates_gather(night))):
            # Batches keep one compare prompt small even on a backfill's first night.
            for start in range(0, len(scope), COMPARE_BATCH):
                _scope_decide(night, scope[start : start + COMPARE_BATCH])
                night.writes.flush()
        night.changes.language = night_language(night.statements)
        if not dry_run:
            diary_append(user=user, run=run, now=now, changes=night.changes, lines=night.diary, memories=night.named)
        if dry_run:
            transaction.set_rollback(True)
    if not dry_run and night.changed_memories:
        memory_md_refresh(user=user)
    night.counters["users_processed"] = 1
    return night.counters


def _awaits_network(dreamer: Dreamer, embedder: Embedder) -> bool:
    """The night would wait on a remote model or embedder. Offline ones (the rules engine, the local
    embedder) answer in process as fast as a rehearsal would, so the night asks them inside the
    transaction only, the same questions with the same answers."""
    return getattr(dreamer, "calls_network", True) or getattr(embedder, "calls_network", True)


def _scopes(clusters: list[Cluster]) -> list[list[Cluster]]:
    """The clusters by scope: the user's profile (no persona) first, then persona by persona."""
    personas = sorted({c.persona_id for c in clusters}, key=lambda p: (p is not None, p or 0))
    return [[c for c in clusters if c.persona_id == persona_id] for persona_id in personas]


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
    for memory in result.rejected:
        night.diary.add("let_go", [memory.statement], memory_ids=[memory.pk])


def _pending(night: _Night, *, lock: bool) -> list[Candidate]:
    """The user's pending, verified candidates said up to `now`, oldest first (locked inside the night)."""
    candidates = Candidate.objects.select_for_update(of=("self",)) if lock else Candidate.objects.all()
    return list(
        candidates.filter(user=night.user, status=Candidate.Status.PENDING, verified=True, said_at__lte=night.now)
        .select_related("message")
        .order_by("said_at", "pk")
    )


def _embed_missing(night: _Night, candidates: list[Candidate]) -> None:
    """Embed the candidates that lack a vector in one call and store them in one statement."""
    missing = [c for c in candidates if c.embedding is None]
    if missing:
        vectors = night.embedder.embed([c.statement for c in missing], kind="document", ctx=night.ctx)
        for candidate, vector in zip(missing, vectors):
            candidate.embedding = vector
        candidates_embeddings_save(candidates=missing)


def _candidates_gather(night: _Night) -> list[Candidate]:
    """Pending, verified candidates up to `now`, re-verified, minus tombstoned ones; all embedded."""
    digests = tombstoned_digests(user=night.user)
    usable = []
    for candidate in _pending(night, lock=True):
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
    night.writes.flush()
    _embed_missing(night, usable)
    return usable


def quote_still_in_message(candidate: Candidate) -> bool:
    """The quote is still verbatim in the user's message (or in its masked form, which the model saw)."""
    message = candidate.message
    if message is None or message.role != Message.Role.USER:
        return False
    return quote_in_message(quote=candidate.quote, text=message.content)


def _candidate_close(night: _Night, candidate: Candidate, *, status: str, reason: str, memory: Memory | None = None,
                     score: float | None = None, breakdown: dict | None = None) -> None:
    candidate.status = status
    candidate.reason = reason
    candidate.decided_at = night.now
    candidate.memory = memory
    if score is not None:
        candidate.score, candidate.score_breakdown = score, breakdown or {}
    night.writes.decide(candidate)  # written with the batch (NightWrites.flush)


def _night_rehearse(night: _Night) -> None:
    """Before the night's transaction: embed what lacks a vector and ask every compare question the
    night will ask, so the model is not awaited while the user's rows are locked. The transaction
    re-reads everything and uses an answer only for the very same question (feedback applied first,
    or a concurrent change, makes it ask again)."""
    digests = tombstoned_digests(user=night.user)
    usable = [c for c in _pending(night, lock=False) if quote_still_in_message(c)
              and not is_tombstoned(user=night.user, statement=c.statement, digests=digests)]
    _embed_missing(night, usable)
    memories = ScopeMemories(user=night.user, lock=False)
    for scope in _scopes(candidates_cluster(candidates=usable)):
        # Only a scope's first batch: the next ones see the memories tonight's first decisions make, so
        # their question is only known inside the transaction (a big backfill night asks them there).
        batch = scope[:COMPARE_BATCH]
        neighbours = batch_neighbours(memories=memories, clusters=batch)
        if not neighbours:
            continue
        answer = scope_compare(night, batch, neighbours)
        if answer is not None:
            night.rehearsed[compare_key(batch, neighbours)] = answer


def _scope_decide(night: _Night, clusters: list[Cluster]) -> None:
    """Compare clusters of one scope with their nearest memories in one dreamer call, then decide each."""
    neighbours = batch_neighbours(memories=night.memories, clusters=clusters)
    comparisons: dict[int, Comparison] = {}
    if neighbours:
        answer = scope_compare(night, clusters, neighbours)
        if answer is None:
            return  # unusable: deciding blind could duplicate or miss a contradiction; the next night asks
        comparisons = {c.index: c for c in answer if 0 <= c.index < len(clusters)}
    # The ids of the memories this batch will make, in one statement (a cluster that meant to
    # reinforce a memory superseded meanwhile takes one more as it is made).
    night.writes.reserve(sum(
        1 for index, cluster in enumerate(clusters)
        if _route(comparisons.get(index), neighbours) == "new" and _new_decision(night, cluster) == "promote"
    ))
    reinforced = Reinforced.load({c.memory_id for c in comparisons.values()
                                  if c.relation in ("reinforces", "adds_detail") and c.memory_id in neighbours})
    for index, cluster in enumerate(clusters):
        _cluster_decide(night, cluster, comparisons.get(index), neighbours, reinforced)


def _route(comparison: Comparison | None, neighbours: dict[int, Memory]) -> str:
    """wait, reinforce or new (maybe superseding the memory it contradicts), by the compare answer."""
    memory = neighbours.get(comparison.memory_id) if comparison and comparison.memory_id else None
    if memory is not None and memory.status != Memory.Status.ACTIVE:
        memory = None  # superseded earlier tonight by another cluster
    if comparison and comparison.relation == "wait":
        return "wait"  # no verdict: deciding blind could duplicate a memory; the next night asks again
    if comparison and memory and comparison.relation in ("reinforces", "adds_detail"):
        return "reinforce"
    return "new"


def _cluster_decide(night: _Night, cluster: Cluster, comparison: Comparison | None, neighbours: dict[int, Memory],
                    reinforced: Reinforced) -> None:
    for candidate in cluster.candidates:
        if candidate.score is None:  # heard since the last night (the pending pool is older)
            night.diary.heard(candidate.said_at)
    route = _route(comparison, neighbours)
    if route == "wait":
        return
    night.statements.append(cluster.best.statement)
    memory = neighbours.get(comparison.memory_id) if comparison and comparison.memory_id else None
    if route == "reinforce":
        _cluster_reinforce(night, cluster, memory, reinforced, detailed=comparison.statement
                           if comparison.relation == "adds_detail" else None)
    elif comparison and memory and memory.is_active and comparison.relation == "contradicts":
        _cluster_new(night, cluster, contradicts=memory, reason=comparison.reason)
    else:
        _cluster_new(night, cluster)


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


def _new_decision(night: _Night, cluster: Cluster) -> str:
    return score_decision(_cluster_score(night, cluster, sessions=len(cluster.session_ids))[0])


def _cluster_new(night: _Night, cluster: Cluster, *, contradicts: Memory | None = None, reason: str = "") -> None:
    score, breakdown = _cluster_score(night, cluster, sessions=len(cluster.session_ids))
    decision = score_decision(score)
    if decision == "promote":
        _cluster_promote(night, cluster, score=score, breakdown=breakdown, contradicts=contradicts, reason=reason)
    elif decision == "pending":
        _cluster_pending(night, cluster, score=score, breakdown=breakdown, contradicts=contradicts)
    else:
        for candidate in cluster.candidates:
            _candidate_close(night, candidate, status=Candidate.Status.DISMISSED, score=score, breakdown=breakdown,
                             reason=f"Dismissed: score {score:.2f} is below the pending threshold"
                                    f"{' (' + breakdown['vague'] + ')' if breakdown.get('vague') else ''}.")
        night.counters["dropped"] += len(cluster.candidates)


def _cluster_promote(night: _Night, cluster: Cluster, *, score: float, breakdown: dict, contradicts: Memory | None,
                     reason: str) -> None:
    memory = _memory_create(night, cluster, score=score, breakdown=breakdown)
    for candidate in cluster.candidates:
        _candidate_close(night, candidate, status=Candidate.Status.PROMOTED, memory=memory,
                         score=score, breakdown=breakdown, reason=f"Promoted with score {score:.2f}.")
    night.counters["promoted"] += 1
    night.named.append(memory)
    night.memories.added(memory)
    replaced = [(contradicts, reason)] if contradicts is not None else []
    replaced += _habits_ended(night, memory, contradicts)  # "User quit coffee" also ends "User drinks 4 cups of coffee a day"
    for old, why in replaced:
        _memory_supersede(night, old=old, new=memory, at=cluster.first_said_at, reason=why)
        night.changes.changed.append((old.statement, memory.statement))
        night.diary.add("changed", [old.statement, memory.statement], memory_ids=[old.pk, memory.pk])
    if not replaced:
        night.changes.learned.append(memory.statement)
        night.diary.add("learned", [memory.statement], memory_ids=[memory.pk])
    for plan, why in plans_settled_by(memory=memory, replaced=contradicts, plans=night.plans):
        _memory_supersede(night, old=plan, new=memory, at=cluster.first_said_at, reason=why)
        if why.startswith("fulfilled"):
            night.writes.flush()  # both memories' sources are read
            plan_sources_carry(plan=plan, memory=memory)
        night.changes.changed.append((plan.statement, memory.statement))
        night.diary.add("changed", [plan.statement, memory.statement], memory_ids=[plan.pk, memory.pk])
    night.plans.added(memory)


def _habits_ended(night: _Night, memory: Memory, contradicted: Memory | None) -> list[tuple[Memory, str]]:
    """The active habits of the scope, said before it, that the new memory says the user quit, what it said of a
    partner it says the user parted from, and the one job they have when it says they left it (engine.endings)."""
    if not ends_something(memory.statement):
        return []
    before = [m for m in night.memories.active(memory.persona_id)
              if m.pk != memory.pk and m is not contradicted and m.first_seen <= memory.last_seen]
    ended = [(before[i], why) for i, why in ended_in(memory.statement, [m.statement for m in before])]
    jobs = [(m, why) for m in before if m.first_seen < memory.first_seen and (why := job_left(memory.statement, m.statement))]
    # a job left unnamed ends the job only when there is one: of two, which one is not said
    return [(m, f"{why} ('{memory.statement}')") for m, why in ended + (jobs if len(jobs) == 1 else [])]


def _cluster_pending(night: _Night, cluster: Cluster, *, score: float, breakdown: dict,
                     contradicts: Memory | None) -> None:
    why = f"Pending: score {score:.2f} is below the promotion threshold; waiting for it to come up again."
    if contradicts is not None:
        why += f" It would contradict memory #{contradicts.pk}."
    new_tonight = sum(1 for c in cluster.candidates if c.score is None)
    for candidate in cluster.candidates:
        candidate.score, candidate.score_breakdown, candidate.reason = score, breakdown, why
        night.writes.decide(candidate)
    if new_tonight:  # the pool is re-scored every night; count and narrate only what is new
        night.counters["pending"] += new_tonight
        night.changes.pending.append(cluster.best.statement)
        night.diary.add("pending", [cluster.best.statement], candidate_ids=[c.pk for c in cluster.candidates])


def _memory_create(night: _Night, cluster: Cluster, *, score: float, breakdown: dict) -> Memory:
    """The cluster's memory, its id taken now, written with its sources when the batch is (NightWrites)."""
    best = cluster.best  # "User got the job" is named by the interview told before (named_outcomes.py)
    statement, named_by = outcome_statement(best.statement, active=lambda: night.memories.active(cluster.persona_id))
    memory = night.writes.memory_add(Memory(
        user=night.user,
        persona_id=cluster.persona_id,
        statement=statement,
        category=cluster.category,
        importance=max(c.importance for c in cluster.candidates),
        confidence=clip_confidence(score),
        valid_from=cluster.first_said_at,
        first_seen=cluster.first_said_at,
        last_seen=cluster.last_said_at,
        recurrence=len(cluster.session_ids),
        half_life_days=half_life_days(cluster.category, statement=best.statement),
        score=score,
        score_breakdown={**breakdown, **named_by},
        embedding=list(best.embedding),
    ))
    night.writes.sources_add(memory_sources_merge(memory=memory, candidates=cluster.candidates, existing=[])[0])
    return memory


def _memory_supersede(night: _Night, *, old: Memory, new: Memory, at: datetime, reason: str) -> None:
    if night.writes.holds(old):
        night.writes.flush()  # a plan made earlier tonight: its row must exist to be updated
    old.status = Memory.Status.SUPERSEDED
    old.valid_to = at
    old.superseded_by = new
    old.score_breakdown = {**old.score_breakdown, "superseded_reason": reason or "contradicted by newer evidence"}
    old.save(update_fields=["status", "valid_to", "superseded_by", "score_breakdown", "updated_at"])
    night.plans.gone(old)
    night.memories.gone(old)
    night.counters["superseded"] += 1


def _cluster_reinforce(night: _Night, cluster: Cluster, memory: Memory, reinforced: Reinforced, *,
                       detailed: str | None = None) -> None:
    """The cluster says what the memory says (its sources join the memory's); with `detailed`, it also
    adds a detail, and the memory takes the new wording (re-embedded) while keeping its sources.
    What it reads of the memory was read for the whole batch (`reinforced`); one UPDATE of the memory."""
    if reinforced.joined_before(memory):
        # Its sources from the first reinforcement are stored before any of them is dropped, as a
        # flush per reinforcement stored them: the sources' ids stay what they were.
        night.writes.flush()
    changed = ["recurrence", "confidence", "last_seen", "first_seen", "score", "score_breakdown", "updated_at"]
    if detailed and detailed != memory.statement:
        night.changes.changed.append((memory.statement, detailed))
        memory.statement = detailed
        memory.embedding = list(night.embedder.embed([detailed], kind="document", ctx=night.ctx)[0])
        changed += ["statement", "embedding"]
    new_sessions = cluster.session_ids - reinforced.session_ids(memory)
    memory.recurrence += len(new_sessions)
    memory.confidence = clip_confidence(memory.confidence + settings.DREAM_REINFORCE_DELTA * len(new_sessions))
    memory.last_seen = max(memory.last_seen, cluster.last_said_at)
    memory.first_seen = min(memory.first_seen, cluster.first_said_at)
    score, breakdown = _cluster_score(night, cluster, sessions=memory.recurrence, feedback=reinforced.verdict(memory))
    memory.score = score
    memory.score_breakdown = {**breakdown, **{k: v for k, v in memory.score_breakdown.items() if k not in breakdown}}
    memory.save(update_fields=changed)
    night.plans.changed(memory)
    fresh, dropped = memory_sources_merge(memory=memory, candidates=cluster.candidates,
                                          existing=reinforced.sources(memory))
    night.writes.sources_drop(dropped)
    night.writes.sources_add(fresh)
    reinforced.joined(memory, candidates=cluster.candidates, fresh=fresh, dropped=dropped)
    for candidate in cluster.candidates:
        _candidate_close(night, candidate, status=Candidate.Status.MERGED, memory=memory, score=score,
                         breakdown=breakdown, reason=f"Reinforces memory #{memory.pk}.")
    night.counters["reinforced"] += 1
    night.named.append(memory)
    night.changes.reinforced.append(memory.statement)
    night.diary.add("reinforced", [memory.statement], memory_ids=[memory.pk])
