"""django-q2 entry points. Thin: each one calls a service and returns a short summary for the task log."""
from __future__ import annotations

from django.conf import settings

from dreaming.pipeline.light import light_sleep_sweep, worker_name
from dreaming.models import DreamRun


def light_sleep_task() -> str:
    """Scheduled every DREAM_SWEEP_SECONDS (or nightly): sweep until nothing is claimable.

    Bounded by DREAM_TASK_MAX_SWEEPS so one task never runs unbounded; it also stops at a sweep that
    failed without progress (e.g. the provider is down: its claims were released for the next tick).
    """
    worker = f"q:{worker_name()}"
    sweeps = claimed = done = skipped = failed = candidates = 0
    for _ in range(settings.DREAM_TASK_MAX_SWEEPS):
        run = light_sleep_sweep(worker=worker)
        sweeps += 1
        claimed += run.sessions_claimed
        done += run.sessions_done
        skipped += run.sessions_skipped
        failed += run.sessions_failed
        candidates += run.candidates_created
        if run.sessions_claimed < settings.DREAM_BATCH_SIZE:
            break  # nothing more is claimable right now
        if run.status == DreamRun.Status.FAILED and run.sessions_done + run.sessions_skipped == 0:
            break  # failing without progress (provider down): leave it to the next tick
    return (
        f"light sleep: {sweeps} sweep(s), {claimed} claimed, {done} done, {skipped} skipped, "
        f"{failed} failed, {candidates} candidates"
    )


# --- deep sleep and weekly (area: deep) -------------------------------------------------------
def deep_sleep_task() -> str:
    """Scheduled nightly at DREAM_DEEP_HOUR: every user with something new. Per-user locks make a
    second worker (or a manual `dream --now`) wait and then find nothing left to do."""
    from dreaming.pipeline.deep import deep_sleep_all

    run = deep_sleep_all(worker=f"q:{worker_name()}")
    return (
        f"deep sleep: {run.users_processed} user(s), {run.promoted} promoted, {run.reinforced} reinforced, "
        f"{run.pending} pending, {run.dropped} dropped, {run.superseded} superseded"
        + (f"; errors: {run.error}" if run.error else "")
    )


def weekly_task() -> str:
    """Scheduled weekly (Sunday 04:00 by default): decay, evict, merge, correct, expire."""
    from dreaming.pipeline.weekly import weekly_consolidate_all

    run = weekly_consolidate_all(worker=f"q:{worker_name()}")
    return (
        f"weekly: {run.users_processed} user(s), {run.decayed} decayed, {run.evicted} evicted, "
        f"{run.merged} merged, {run.superseded} superseded, {run.expired} expired"
        + (f"; errors: {run.error}" if run.error else "")
    )
