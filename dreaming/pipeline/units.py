"""Deep sleep and weekly as claimable units: one unit per user, shared by any number of workers.

1. `units_plan` (the nightly schedule, `dream --now` on any host): one WAITING unit per user who
   needs the phase. A partial unique index allows one open (waiting or running) unit per user and
   phase, and the insert is ON CONFLICT DO NOTHING: two clusters' schedules, or a schedule and a
   `dream --now`, never plan a user twice.
2. `units_claim`: one statement takes the next units (WAITING, or RUNNING with a claim older than
   DREAM_CLAIM_STALE_SECONDS: its worker died) with FOR UPDATE SKIP LOCKED and counts the attempt.
   A unit whose night failed waits out the same window before its retry.
3. `units_work`: claims and runs units until none is left or the time budget is spent, up to
   DREAM_MODEL_CONCURRENCY users at once when the dreamer calls a remote model (threads, each with
   its own database connection); the local rules engine runs one at a time (it is CPU-bound).
4. A user's night is applied in its own transaction, so a worker killed mid-user leaves nothing
   applied; the unit is re-taken after the stale window and the night applied once. A failed night
   goes back to WAITING until DREAM_MAX_ATTEMPTS, then stays FAILED with its error and the rest go
   on. A model that is down releases the unit (the attempt is not counted) and stops the worker.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, Max, Min
from django.db.models.functions import Greatest
from django.utils import timezone

from dreaming.models import DreamRun, NightUnit, Phase
from dreaming.pipeline.lanes import lanes_for, lanes_run
from dreaming.pipeline.runs import run_finish, run_start
from dreaming.protocol import ProviderUnavailable
from dreaming.providers import get_dreamer, get_embedder
from dreaming.providers.embedding_space import embedding_space_problem

logger = logging.getLogger(__name__)
_TABLE = NightUnit._meta.db_table
PHASES = (Phase.DEEP, Phase.WEEKLY)


def night_of(now: datetime) -> date:
    """The night a moment belongs to: the local date twelve hours earlier (03:00 on the 2nd → the 1st)."""
    return timezone.localdate(now - timedelta(hours=12))


def units_plan(*, phase: str, now: datetime | None = None) -> int:
    """One waiting unit per user who needs `phase` and has no open unit; returns how many were created."""
    now = now or timezone.now()
    users = _users_needing(phase=phase, now=now)
    units = [NightUnit(phase=phase, night=night_of(now), user_id=pk, planned_at=now) for pk in users.values_list("pk", flat=True)]
    before = NightUnit.objects.filter(phase=phase, status__in=_OPEN).count()
    NightUnit.objects.bulk_create(units, ignore_conflicts=True, batch_size=1000)
    return NightUnit.objects.filter(phase=phase, status__in=_OPEN).count() - before


_OPEN = (NightUnit.Status.WAITING, NightUnit.Status.RUNNING)


def _users_needing(*, phase: str, now: datetime):
    if phase == Phase.DEEP:
        from dreaming.pipeline.deep import users_needing_deep_sleep

        return users_needing_deep_sleep(now=now)
    from dreaming.pipeline.weekly import users_needing_weekly

    return users_needing_weekly()


@dataclass(frozen=True)
class Claim:
    unit_id: int
    user_id: int
    attempts: int
    worker: str
    claimed_at: datetime


_CLAIM_SQL = f"""
WITH picked AS MATERIALIZED (
    SELECT id FROM {_TABLE}
    WHERE phase = %(phase)s
      AND (status = 'waiting' OR status = 'running') AND (claimed_at IS NULL OR claimed_at < %(stale)s)
    ORDER BY id LIMIT %(limit)s FOR UPDATE SKIP LOCKED
)
UPDATE {_TABLE} AS u SET status = 'running', claimed_at = %(now)s, claimed_by = %(worker)s, attempts = u.attempts + 1
FROM picked WHERE u.id = picked.id
RETURNING u.id, u.user_id, u.attempts
"""


def units_claim(*, phase: str, worker: str, limit: int = 1) -> list[Claim]:
    """Take up to `limit` units for `worker` (after giving up on stale ones out of attempts)."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.DREAM_CLAIM_STALE_SECONDS)
    NightUnit.objects.filter(
        phase=phase, status=NightUnit.Status.RUNNING, claimed_at__lt=stale, attempts__gte=settings.DREAM_MAX_ATTEMPTS
    ).update(status=NightUnit.Status.FAILED, finished_at=now, claimed_by="",
             error=f"gave up after {settings.DREAM_MAX_ATTEMPTS} attempts (the worker died or hung each time)")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_CLAIM_SQL, {"phase": phase, "stale": stale, "limit": limit, "now": now, "worker": worker[:120]})
        rows = cursor.fetchall()
    return [Claim(unit_id=pk, user_id=user_id, attempts=attempts, worker=worker[:120], claimed_at=now)
            for pk, user_id, attempts in rows]


def _ours(claim: Claim):
    # Writes after the claim are conditional on still holding it: a worker whose claim went stale
    # and was re-taken must not overwrite the new owner's outcome.
    return NightUnit.objects.filter(pk=claim.unit_id, claimed_by=claim.worker, claimed_at=claim.claimed_at)


def unit_finish(*, claim: Claim, run: DreamRun) -> str:
    """Done, back to waiting (attempts left) or failed; returns the new status ('' if the claim was lost)."""
    now = timezone.now()
    if run.status == DreamRun.Status.OK:
        status, error = NightUnit.Status.DONE, ""
    elif claim.attempts < settings.DREAM_MAX_ATTEMPTS:
        status, error = NightUnit.Status.WAITING, run.error
    else:
        status, error = NightUnit.Status.FAILED, run.error
    # A failed night waits out the stale window before its retry (claimed_at stays as a "not before"
    # mark), so a poison user is not retried in a tight loop by the same worker.
    updated = _ours(claim).update(
        status=status, run=run, error=error[:2000], claimed_by="",
        finished_at=now if status != NightUnit.Status.WAITING else None,
    )
    return status if updated else ""


def unit_release(*, claim: Claim, error: str) -> bool:
    """Give the unit back uncounted: the model is down, which is not the user's fault."""
    return _ours(claim).update(
        status=NightUnit.Status.WAITING, claimed_at=None, claimed_by="", error=error[:2000],
        attempts=Greatest(F("attempts") - 1, 0),
    ) == 1


Night = Callable[..., dict[str, int]]


def _night_for(phase: str, *, now, dreamer, embedder) -> Night:
    if phase == Phase.DEEP:
        from dreaming.pipeline.deep import deep_night_runner

        return deep_night_runner(now=now, dry_run=False, dreamer=dreamer, embedder=embedder)
    from dreaming.pipeline.weekly import weekly_runner

    return weekly_runner(now=now, dry_run=False, dreamer=dreamer, embedder=embedder)


@dataclass
class WorkReport:
    runs: list[DreamRun] = field(default_factory=list)
    done: int = 0
    retry: int = 0
    failed: int = 0
    stopped: str = ""  # why the worker stopped early (the model is down), if it did


def units_work(
    *, phase: str, worker: str, now: datetime | None = None, dreamer=None, embedder=None,
    seconds: float | None = None, concurrency: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> WorkReport:
    """Claim and run `phase` units until none is left, the time budget is spent or the model is down."""
    problem = embedding_space_problem()
    if problem:  # no claims taken, nothing embedded or paid for
        return WorkReport(stopped=problem)
    dreamer, embedder = dreamer or get_dreamer(), embedder or get_embedder()
    concurrency = concurrency or lanes_for(dreamer)
    deadline = time.monotonic() + seconds if seconds else None
    report, lock = WorkReport(), threading.Lock()
    stop = threading.Event()
    total = NightUnit.objects.filter(phase=phase, status__in=_OPEN).count()

    def lane(number: int) -> None:
        night = _night_for(phase, now=now, dreamer=dreamer, embedder=embedder)
        while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
            claims = units_claim(phase=phase, worker=f"{worker}/{number}")
            if not claims:
                return
            outcome, run = _unit_run(claims[0], phase=phase, night=night, now=now)
            with lock:
                report.runs.append(run)
                if outcome == "stop":
                    report.stopped = run.error
                    stop.set()
                else:
                    setattr(report, outcome, getattr(report, outcome) + 1)
                finished = report.done + report.retry + report.failed
            if progress:
                progress(min(finished, total), max(total, finished))

    lanes_run(concurrency, lane)
    return report


def _unit_run(claim: Claim, *, phase: str, night: Night, now) -> tuple[str, DreamRun]:
    user = get_user_model().objects.get(pk=claim.user_id)
    run = run_start(phase=phase, user=user, worker=claim.worker, simulated_now=now)
    try:
        counters = night(user=user, run=run)
    except ProviderUnavailable as exc:
        run = run_finish(run=run, error=f"provider unavailable: {exc}")
        unit_release(claim=claim, error=run.error)
        return "stop", run
    except Exception as exc:  # the user's transaction rolled back: nothing half-applied
        logger.exception("%s failed for user %s", phase, user.pk)
        run = run_finish(run=run, error=exc)
    else:
        run = run_finish(run=run, counters=counters)
    status = unit_finish(claim=claim, run=run)
    return {NightUnit.Status.DONE: "done", NightUnit.Status.WAITING: "retry"}.get(status, "failed"), run


# --- progress ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NightProgress:
    phase: str
    night: date | None
    waiting: int
    running: int
    done: int
    failed: int
    per_minute: float  # units finished per minute over the last 15 minutes
    expected_finish: datetime | None
    late: bool  # at this rate the night will not finish before the next one starts

    @property
    def total(self) -> int:
        return self.waiting + self.running + self.done + self.failed


def night_progress(*, phase: str, now: datetime | None = None) -> NightProgress:
    """Tonight's units of `phase` (the latest night planned): counts, rate and expected finish."""
    now = now or timezone.now()
    night = NightUnit.objects.filter(phase=phase).aggregate(latest=Max("night"))["latest"]
    counts = dict.fromkeys(NightUnit.Status.values, 0)
    if night is not None:
        for row in NightUnit.objects.filter(phase=phase, night=night).values("status").annotate(n=Count("id")):
            counts[row["status"]] = row["n"]
    recent = NightUnit.objects.filter(phase=phase, finished_at__gte=now - timedelta(minutes=15)).count()
    per_minute = recent / 15.0
    left = counts["waiting"] + counts["running"]
    expected = None
    if left and per_minute:
        expected = now + timedelta(minutes=left / per_minute)
    period = timedelta(days=7 if phase == Phase.WEEKLY else 1)
    started = NightUnit.objects.filter(phase=phase, night=night).aggregate(first=Min("planned_at"))["first"] if night else None
    late = bool(left and (expected is None and recent == 0 and started and now - started > timedelta(hours=1)
                          or expected is not None and started is not None and expected > started + period))
    return NightProgress(phase=phase, night=night, waiting=counts["waiting"], running=counts["running"],
                         done=counts["done"], failed=counts["failed"], per_minute=round(per_minute, 2),
                         expected_finish=expected, late=late)
