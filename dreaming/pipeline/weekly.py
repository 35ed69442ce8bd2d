"""Weekly consolidation: let memories fade, forget the faded, merge duplicates, correct the outdated.

weekly_consolidate_user, inside one transaction holding the user's lock:
1. a superseded chain keeps only its head active; a plan a later memory fulfils is superseded by it;
2. plans whose time has passed ("plans to / will / next week / 打算 / 下周" said more than
   DREAM_PLAN_WINDOW_DAYS ago, and due by their own words: "next month" said in September waits for October)
   become what they now are: a plan to start a job is the job, and supersedes the job the user had
   (engine.plans_due); others become dated events when they mattered (importance >= 0.6 or said in
   several sessions), otherwise they expire (archived, valid_to set);
3. decay: the stored confidence IS the effective confidence. Each run multiplies it by
   0.5 ** (days since the later of last_seen and the previous decay / half-life), so running twice
   never decays twice, and a mention or an "agree" (which refresh last_seen) restarts the clock.
   Agreed and user-written memories decay at DREAM_AGREE_HALF_LIFE_FACTOR × the half-life;
4. evict: below DREAM_EVICT_CONFIDENCE and not mentioned for DREAM_EVICT_IDLE_DAYS → archived —
   except events: what happened stays true, so an event only fades (out of MEMORY.md, whose
   order is importance and confidence) and stays in recall's long tail; plans are not history
   and are handled by step 2;
5. merge duplicates in one scope (cosine >= DREAM_MERGE_SIMILARITY, or the same things said in any
   language, never two items told apart by a name or number: dreaming.engine.slots): the best-supported memory
   survives with the union of sources (up to 5), the larger recurrence, the earliest first_seen and
   the dreamer's merged statement; the others are archived with superseded_by pointing at it and
   their candidates and feedback re-pointed;
6. pending candidates older than DREAM_PENDING_MAX_DAYS are dismissed.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, JSONField, Value
from django.db.models.expressions import CombinedExpression
from django.utils import timezone

from dreaming.pipeline.clustering import unit
from dreaming.pipeline.deep import memory_md_refresh
from dreaming.engine.language import is_chinese
from dreaming.memory.feedback import latest_verdicts
from dreaming.pipeline.locks import user_lock
from dreaming.pipeline.night_writes import rows_update
from dreaming.engine.compare import same_subject
from dreaming.models import Candidate, Category, DreamRun, Feedback, Memory, MemorySettings, MemorySource, Phase
from dreaming.providers.embedding_space import embedding_space_problem
from dreaming.engine.slots import particulars_differ, same_thing
from dreaming.engine.spouses import same_spouse
from dreaming.engine.plans_due import job_plan_taken, plan_due
from dreaming.pipeline.plans import jobs_replaced_by, plan_sources_carry, plans_settle
from dreaming.providers import get_dreamer, get_embedder
from dreaming.protocol import CallContext, Dreamer, Embedder, UnusableAnswer
from dreaming.pipeline.runs import run_users
from dreaming.memory.scoring import CONFIDENCE_MIN, decayed_confidence, half_life_days, is_plan
from dreaming.memory.tombstones import is_tombstoned

logger = logging.getLogger(__name__)

WEEKLY_COUNTERS = ("users_processed", "superseded", "decayed", "evicted", "merged", "expired")


def users_needing_weekly():
    active = Memory.objects.filter(status=Memory.Status.ACTIVE).values("user_id")
    pending = Candidate.objects.filter(status=Candidate.Status.PENDING).values("user_id")
    users = get_user_model().objects.filter(pk__in=active.union(pending))
    return MemorySettings.exclude_off(users).order_by("pk")


def weekly_consolidate_user(
    *, user, now: datetime | None = None, dry_run: bool = False, dreamer: Dreamer | None = None,
    embedder: Embedder | None = None, worker: str = "",
) -> DreamRun:
    week = weekly_runner(now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)
    return run_users(phase=Phase.WEEKLY, users=[user], user=user, night=week, now=now, dry_run=dry_run, worker=worker,
                     refusal=embedding_space_problem)


def weekly_consolidate_all(
    *, now: datetime | None = None, dry_run: bool = False, dreamer: Dreamer | None = None,
    embedder: Embedder | None = None, worker: str = "", users=None,
    progress: Callable[[int, int], None] | None = None,
) -> DreamRun:
    todo = users if users is not None else users_needing_weekly()
    week = weekly_runner(now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)
    return run_users(phase=Phase.WEEKLY, users=todo, night=week, now=now, dry_run=dry_run, worker=worker,
                     progress=progress, refusal=embedding_space_problem)


def weekly_runner(*, now, dry_run, dreamer, embedder) -> Callable[..., dict[str, int]]:
    now = now or timezone.now()
    return lambda *, user, run: _weekly_one(user=user, run=run, now=now, dry_run=dry_run, dreamer=dreamer, embedder=embedder)


def _weekly_one(*, user, run, now, dry_run, dreamer, embedder) -> dict[str, int]:
    if not MemorySettings.is_on(user_id=user.pk):
        return {}
    counters = dict.fromkeys(WEEKLY_COUNTERS, 0)
    with transaction.atomic():
        user_lock(user_id=user.pk)
        counters["superseded"] = superseded_chains_fix(user=user)
        counters["superseded"] += plans_fulfilled(user=user)
        counters["expired"] += plans_correct(user=user, now=now)
        counters["decayed"] = memories_decay(user=user, now=now)
        counters["evicted"] = memories_evict(user=user, now=now)
        counters["merged"] = duplicates_merge(
            user=user, dreamer=dreamer, embedder=embedder, ctx=CallContext(user_id=user.pk, run_id=run.pk, phase=Phase.WEEKLY)
        )
        counters["expired"] += pending_expire(user=user, now=now)
        if dry_run:
            transaction.set_rollback(True)
    if not dry_run and any(counters.values()):
        memory_md_refresh(user=user)
    counters["users_processed"] = 1
    return counters


def _active(user):
    return Memory.objects.select_for_update().filter(user=user, status=Memory.Status.ACTIVE)


def superseded_chains_fix(*, user) -> int:
    """A memory that was superseded but somehow still active (e.g. edited back) steps down for its head."""
    fixed = 0
    for memory in _active(user).filter(superseded_by__isnull=False).select_related("superseded_by"):
        memory.status = Memory.Status.SUPERSEDED
        memory.valid_to = memory.valid_to or memory.superseded_by.valid_from
        memory.save(update_fields=["status", "valid_to", "updated_at"])
        fixed += 1
    return fixed


def plans_fulfilled(*, user) -> int:
    """A plan a later memory made come true ("moving to Tokyo next month" → "User lives in Tokyo now")
    is superseded by it, so MEMORY.md says what happened, not what was planned."""
    settled = plans_settle(user=user)
    for plan, memory, reason in settled:
        plan.status = Memory.Status.SUPERSEDED
        plan.valid_to = memory.valid_from
        plan.superseded_by = memory
        plan.score_breakdown = {**plan.score_breakdown, "superseded_reason": reason}
        plan.save(update_fields=["status", "valid_to", "superseded_by", "score_breakdown", "updated_at"])
        plan_sources_carry(plan=plan, memory=memory)
    return len(settled)


def plans_correct(*, user, now: datetime) -> int:
    """Plans whose time has passed (said more than the window ago, and due by their own words: "next month" said
    in September is due in October) become what they now are: the job a job plan became (replacing the job the user
    had), a dated event, or expired."""
    cutoff = now - timedelta(days=settings.DREAM_PLAN_WINDOW_DAYS)
    corrected, taken = [], []
    for memory in _active(user).filter(last_seen__lt=cutoff).defer("embedding", "recall_key"):
        if not is_plan(memory.statement) or memory.score_breakdown.get("plan_corrected"):
            continue
        said = timezone.localtime(memory.last_seen).date()
        due = plan_due(memory.statement, said=said)
        if due and due[0] > timezone.localtime(now).date():
            continue  # its time has not come: still a plan
        job = job_plan_taken(memory.statement, when=due[1]) if due else None
        if job:
            memory.statement, memory.category = job, Category.FACT
            memory.half_life_days = half_life_days(Category.FACT)
            memory.score_breakdown = {**memory.score_breakdown, "plan_became": "the job"}
            taken.append((memory, due[0]))
        elif memory.importance >= 0.6 or memory.recurrence >= 2:
            # Keep it, but as what it now is: something planned at a date, not a plan for "next week".
            memory.statement = (
                f"{memory.statement}（{said.isoformat()}时的计划）" if is_chinese(memory.statement)
                else f"{memory.statement} (as said on {said.isoformat()})"
            )
            memory.category = Category.EVENT
            memory.half_life_days = half_life_days(Category.EVENT)
            memory.score_breakdown = {**memory.score_breakdown, "plan_corrected": "became a dated event"}
        else:
            memory.status = Memory.Status.ARCHIVED
            memory.valid_to = memory.last_seen + timedelta(days=settings.DREAM_PLAN_WINDOW_DAYS)
            memory.score_breakdown = {**memory.score_breakdown, "plan_corrected": "expired"}
        corrected.append(memory)
    rows_update(objects=corrected, fields=["statement", "category", "half_life_days", "status", "valid_to",
                                           "score_breakdown", "updated_at"])
    for memory, due_day in taken:
        _jobs_replace(job=memory, due_day=due_day)
    return len(corrected)


def _jobs_replace(*, job: Memory, due_day) -> None:
    """The jobs the user had before a planned one began end with it ("User works as an accountant at a bank" →
    "User started working at Google as a designer in October 2026")."""
    began = timezone.make_aware(datetime.combine(due_day, datetime.min.time()))
    for old, why in jobs_replaced_by(job=job, before=began):
        old.status, old.valid_to, old.superseded_by = Memory.Status.SUPERSEDED, began, job
        old.score_breakdown = {**old.score_breakdown, "superseded_reason": f"{why} (a planned job began)"}
        old.save(update_fields=["status", "valid_to", "superseded_by", "score_breakdown", "updated_at"])


def _agreed_ids(*, user) -> set[int]:
    latest = latest_verdicts(user=user, applied_only=True)
    return {memory_id for memory_id, verdict in latest.items() if verdict == Feedback.Verdict.AGREE}


def memories_decay(*, user, now: datetime) -> int:
    """Decay every active memory since its last decay (or mention); one UPDATE for all of them."""
    agreed = _agreed_ids(user=user)
    changed, decayed = [], 0
    for memory in _active(user).only("confidence", "half_life_days", "last_seen", "user_set", "score_breakdown"):
        previous = memory.score_breakdown.get("decayed_at")
        since = max(memory.last_seen, datetime.fromisoformat(previous)) if previous else memory.last_seen
        if now <= since:
            continue
        half_life = memory.half_life_days
        if memory.pk in agreed or memory.user_set:
            half_life *= settings.DREAM_AGREE_HALF_LIFE_FACTOR
        confidence = max(CONFIDENCE_MIN, round(decayed_confidence(
            confidence=memory.confidence, half_life=half_life, since=since, now=now), 4))
        memory.score_breakdown = {**memory.score_breakdown, "decayed_at": now.isoformat()}
        decayed += int(confidence < memory.confidence)
        memory.confidence = confidence
        changed.append(memory)
    rows_update(objects=changed, fields=["confidence", "score_breakdown", "updated_at"])
    return decayed


def memories_evict(*, user, now: datetime) -> int:
    # Events are history, not state: "User watched the LOTR trilogy on 1 May 2022" does not become
    # false by not being mentioned, and it is exactly what recall's long tail is for (on LoCoMo,
    # 17 questions' only evidence memory had been evicted this way). A plan-like event that
    # plans_correct does not recognise stays too; the user can still delete it.
    reason = Value({"archived_reason": "evicted: faded and not mentioned"}, output_field=JSONField())
    return Memory.objects.filter(
        user=user,
        status=Memory.Status.ACTIVE,
        user_set=False,
        confidence__lt=settings.DREAM_EVICT_CONFIDENCE,
        last_seen__lt=now - timedelta(days=settings.DREAM_EVICT_IDLE_DAYS),
    ).exclude(category=Category.EVENT).update(
        status=Memory.Status.ARCHIVED, updated_at=timezone.now(),
        score_breakdown=CombinedExpression(F("score_breakdown"), "||", reason, output_field=JSONField()),
    )


def duplicates_merge(*, user, dreamer: Dreamer | None, embedder: Embedder | None, ctx: CallContext) -> int:
    merged = 0
    memories = list(_active(user).filter(embedding__isnull=False))
    for persona_id in {m.persona_id for m in memories}:
        scope = [m for m in memories if m.persona_id == persona_id]
        # The best-supported memory of a group survives: said most often, most trusted, oldest.
        scope.sort(key=lambda m: (-m.recurrence, -m.confidence, m.first_seen, m.pk))
        vectors = np.array([unit(m.embedding) for m in scope])
        similarity = vectors @ vectors.T
        taken: set[int] = set()
        for i, winner in enumerate(scope):
            if i in taken:
                continue
            # Close wording about two different people ("User lives in Berlin" / "User's sister lives in
            # Berlin") is not a duplicate.
            group = [j for j in range(i + 1, len(scope)) if j not in taken and _duplicates(winner, scope[j], similarity[i, j])]
            if not group:
                continue
            taken.update(group)
            dreamer = dreamer or get_dreamer()
            _group_merge(winner=winner, losers=[scope[j] for j in group], dreamer=dreamer, embedder=embedder, ctx=ctx)
            merged += len(group)
    return merged


def _duplicates(a: Memory, b: Memory, cosine: float) -> bool:
    """Close wording about one subject, or the same things said (in any language: engine.slots); never
    two items told apart by a name, number or thing ("a parrot named Kiwi" / "… named Mango")."""
    if same_spouse(a.statement, b.statement):
        return True  # "User is married to a doctor" / "User's wife is a doctor at the city hospital"
    if not same_subject(a.statement, b.statement) or particulars_differ(a.statement, b.statement):
        return False
    return cosine >= settings.DREAM_MERGE_SIMILARITY or same_thing(a.statement, b.statement)


def _group_merge(*, winner: Memory, losers: list[Memory], dreamer: Dreamer, embedder: Embedder | None, ctx) -> None:
    everyone = [winner, *losers]
    try:
        # Oldest first: on conflicting details the merge keeps the most recent (the prompt says so).
        by_age = sorted(everyone, key=lambda m: (m.last_seen, m.pk))
        statement = dreamer.merge(statements=[m.statement for m in by_age], ctx=ctx).strip()
    except UnusableAnswer:
        statement = ""
    if not statement or is_tombstoned(user=winner.user, statement=statement):
        statement = winner.statement
    loser_ids = [m.pk for m in losers]
    MemorySource.objects.filter(memory_id__in=loser_ids).update(memory=winner)
    Candidate.objects.filter(memory_id__in=loser_ids).update(memory=winner)
    Feedback.objects.filter(memory_id__in=loser_ids).update(memory=winner)
    sources_trim(memory=winner)
    if statement != winner.statement:
        winner.statement = statement
        winner.embedding = (embedder or get_embedder()).embed([statement], kind="document", ctx=ctx)[0]
    winner.recurrence = max(m.recurrence for m in everyone)
    winner.first_seen = min(m.first_seen for m in everyone)
    winner.valid_from = min(m.valid_from for m in everyone)
    winner.last_seen = max(m.last_seen for m in everyone)
    winner.confidence = max(m.confidence for m in everyone)
    winner.importance = max(m.importance for m in everyone)
    winner.user_set = any(m.user_set for m in everyone)
    winner.score_breakdown = {**winner.score_breakdown, "merged_from": sorted(loser_ids)}
    winner.save()
    for loser in losers:
        loser.status = Memory.Status.ARCHIVED
        loser.superseded_by = winner
        loser.score_breakdown = {**loser.score_breakdown, "archived_reason": f"merged into #{winner.pk}"}
        loser.save(update_fields=["status", "superseded_by", "score_breakdown", "updated_at"])


def sources_trim(*, memory: Memory) -> None:
    """Drop duplicate quotes, then keep the first evidence and the newest, MAX_SOURCES in all."""
    seen, unique, extra = set(), [], []
    for source in memory.sources.order_by("said_at", "pk"):
        key = (source.message_id, source.quote)
        (extra if key in seen else unique).append(source)
        seen.add(key)
    if len(unique) > Memory.MAX_SOURCES:
        extra += unique[1 : len(unique) - (Memory.MAX_SOURCES - 1)]
    MemorySource.objects.filter(pk__in=[s.pk for s in extra]).delete()


def pending_expire(*, user, now: datetime) -> int:
    cutoff = now - timedelta(days=settings.DREAM_PENDING_MAX_DAYS)
    return Candidate.objects.filter(user=user, status=Candidate.Status.PENDING, said_at__lt=cutoff).update(
        status=Candidate.Status.DISMISSED,
        decided_at=now,
        reason=f"Expired: pending for more than {settings.DREAM_PENDING_MAX_DAYS} days without coming up again.",
    )
