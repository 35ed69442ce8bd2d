"""django-q2 entry points. Thin: each one calls a service and returns a short summary for the task log."""
from __future__ import annotations

from django.conf import settings
from django_q.tasks import async_task

from dreaming.pipeline.lanes import light_sleep_lanes
from dreaming.pipeline.light import worker_name
from dreaming.models import NightUnit, Phase


def light_sleep_task() -> str:
    """Scheduled every DREAM_SWEEP_SECONDS (or nightly): sweep until nothing is claimable.

    In DREAM_MODEL_CONCURRENCY lanes for a remote model. Each lane is bounded by DREAM_TASK_MAX_SWEEPS
    so one task never runs unbounded, and stops at a sweep that failed without progress (e.g. the
    provider is down: its claims were released for the next tick).
    """
    runs = light_sleep_lanes(worker=f"q:{worker_name()}")
    sweeps = len(runs)
    claimed, done, skipped, failed, candidates = (
        sum(getattr(run, name) for run in runs)
        for name in ("sessions_claimed", "sessions_done", "sessions_skipped", "sessions_failed", "candidates_created")
    )
    return (
        f"light sleep: {sweeps} sweep(s), {claimed} claimed, {done} done, {skipped} skipped, "
        f"{failed} failed, {candidates} candidates"
    )


# --- deep sleep and weekly: claimable per-user units shared by every worker of every cluster ------
def deep_sleep_task() -> str:
    """Scheduled nightly at DREAM_DEEP_HOUR: plan tonight's units, then share them out."""
    return _night_start(Phase.DEEP)


def weekly_task() -> str:
    """Scheduled weekly (Sunday 04:00 by default): decay, evict, merge, correct, expire — as units."""
    return _night_start(Phase.WEEKLY)


def night_units_task(phase: str) -> str:
    """Work `phase` units for up to DREAM_NIGHT_TASK_SECONDS; re-queue itself while units wait.

    No task walks all users: each one claims units one by one, so a task killed by Q_TIMEOUT only
    leaves its current users' units to be re-taken after the stale window.
    """
    from dreaming.pipeline.units import units_work

    report = units_work(phase=phase, worker=f"q:{worker_name()}", seconds=settings.DREAM_NIGHT_TASK_SECONDS)
    again = not report.stopped and NightUnit.objects.filter(phase=phase, status=NightUnit.Status.WAITING).exists()
    if again:
        async_task("dreaming.tasks.night_units_task", phase)
    total = {name: sum(getattr(run, name) for run in report.runs) for name in _SUMMED[phase]}
    return (
        f"{_LABEL[phase]}: {total['users_processed']} user(s), "
        + ", ".join(f"{total[name]} {name}" for name in _SUMMED[phase][1:])
        + f"; units {report.done} done, {report.retry} to retry, {report.failed} failed"
        + (f"; stopped: {report.stopped}" if report.stopped else "")
        + ("; more waiting, re-queued" if again else "")
    )


_LABEL = {Phase.DEEP: "deep sleep", Phase.WEEKLY: "weekly"}
_SUMMED = {
    Phase.DEEP: ("users_processed", "promoted", "reinforced", "pending", "dropped", "superseded"),
    Phase.WEEKLY: ("users_processed", "decayed", "evicted", "merged", "superseded", "expired"),
}


def _night_start(phase: str) -> str:
    from dreaming.pipeline.units import units_plan

    planned = units_plan(phase=phase)
    # The rest of the night's tasks go to the queue (any cluster's workers take them); this one works too.
    for _ in range(settings.DREAM_NIGHT_TASKS - 1):
        async_task("dreaming.tasks.night_units_task", phase)
    return night_units_task(phase) + f" ({planned} unit(s) planned)"
