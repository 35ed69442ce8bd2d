"""Several sessions' or users' model calls at once in one worker: lanes.

A remote model spends most of a call waiting, so one worker runs DREAM_MODEL_CONCURRENCY lanes in
threads; each lane claims its own work with the same one-statement claims as any other worker (so
lanes never share a session or a user) and has its own database connection, closed when the lane
ends. The local rules engine is CPU-bound (and Python threads share one core for it): it runs in one
lane, in the calling thread.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections

from dreaming.models import DreamRun
from dreaming.providers import get_dreamer


def lanes_for(dreamer) -> int:
    """How many lanes a worker runs for this dreamer (one unless it says it calls out to a model)."""
    return settings.DREAM_MODEL_CONCURRENCY if getattr(dreamer, "calls_network", False) else 1


def lanes_run(count: int, lane: Callable[[int], None]) -> None:
    """`lane(0)` here when count is 1; otherwise `lane(1)` … `lane(count)` in threads, waited for."""
    if count <= 1:
        lane(0)
        return

    def in_thread(number: int) -> None:
        try:
            lane(number)
        finally:
            connections.close_all()  # this thread's connections end with it

    with ThreadPoolExecutor(max_workers=count, thread_name_prefix="lane") as pool:
        for future in [pool.submit(in_thread, n) for n in range(1, count + 1)]:
            future.result()


def light_sleep_lanes(
    *, worker: str, dreamer=None, embedder=None, concurrency: int | None = None, max_sweeps: int | None = None, **sweep
) -> list[DreamRun]:
    """Light sleep in `concurrency` lanes, each sweeping small batches until nothing is claimable."""
    from dreaming.pipeline.light import light_sleep_sweep

    dreamer = dreamer or get_dreamer()
    concurrency = concurrency or lanes_for(dreamer)
    batch = max(1, settings.DREAM_BATCH_SIZE // concurrency) if concurrency > 1 else settings.DREAM_BATCH_SIZE
    max_sweeps = max_sweeps or settings.DREAM_TASK_MAX_SWEEPS
    runs: list[DreamRun] = []

    def lane(number: int) -> None:
        for _ in range(max_sweeps):
            run = light_sleep_sweep(worker=f"{worker}/{number}", batch_size=batch, dreamer=dreamer, embedder=embedder, **sweep)
            runs.append(run)  # list.append is atomic under the GIL
            if run.sessions_claimed < batch:
                return  # nothing more is claimable right now
            if run.status == DreamRun.Status.FAILED and run.sessions_done + run.sessions_skipped == 0:
                return  # failing without progress (provider down): leave it to the next tick

    lanes_run(concurrency, lane)
    return runs
