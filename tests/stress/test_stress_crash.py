"""Chaos: worker processes are killed with SIGKILL at random while they dream, and replaced; at the
end every session is processed exactly once and no run is left "running". Run with `make stress`."""
import os
import random
import signal
import time

import pytest
from django.db.models import Count

from chat.models import ChatSession
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DreamRun
from tests.stress.workload import fact_for, sessions_seed, worker_start

pytestmark = [pytest.mark.stress, pytest.mark.django_db(transaction=True)]

SESSIONS = int(os.environ.get("STRESS_CHAOS_SESSIONS", "2000"))
KILLS = int(os.environ.get("STRESS_CHAOS_KILLS", "20"))
STALE = 2


def _worker_inside_a_run(workers, rng, *, timeout: float) -> int | None:
    """Index of a live worker that has a light run open right now (claims held)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = DreamRun.objects.filter(phase="light", status=DreamRun.Status.RUNNING, sessions_claimed__gt=0,
                                          worker__startswith="chaos")
        pids = {int(worker.split(":")[2]) for worker in running.values_list("worker", flat=True)}
        live = [i for i, w in enumerate(workers) if w.poll() is None and w.pid in pids]
        if live:
            return rng.choice(live)
        if all(w.poll() is not None for w in workers):
            return None
        time.sleep(0.02)
    return None


def test_workers_killed_at_random_lose_nothing_and_double_nothing(settings):
    session_ids = sessions_seed(users=40, sessions=SESSIONS, prefix="chaos")
    rng = random.Random(7)
    env = {"DREAM_CLAIM_STALE_SECONDS": STALE}
    workers = [worker_start("light", "--batch", "5", "--slow-extract", "0.05", name=f"chaos{i}", **env)
               for i in range(4)]
    killed, killed_pids = 0, set()
    began = time.monotonic()
    try:
        for round_ in range(KILLS):
            time.sleep(rng.uniform(0.3, 1.0))
            # Kill a worker in the middle of a run (it holds claims), not one still loading Django.
            victim = _worker_inside_a_run(workers, rng, timeout=30)
            if victim is None:
                break  # nothing left to dream
            os.kill(workers[victim].pid, signal.SIGKILL)
            workers[victim].wait()
            killed += 1
            killed_pids.add(workers[victim].pid)
            workers[victim] = worker_start("light", "--batch", "5", "--slow-extract", "0.05",
                                           name=f"chaos-r{round_}", **env)
        for worker in workers:
            worker.wait(timeout=900)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    settings.DREAM_CLAIM_STALE_SECONDS = STALE
    time.sleep(STALE + 0.5)
    while light_sleep_sweep(worker="finisher").sessions_claimed:  # whatever the dead left behind
        pass
    elapsed = time.monotonic() - began

    sessions = ChatSession.objects.filter(pk__in=session_ids)
    assert sessions.filter(dreamed_at__isnull=True).count() == 0 and sessions.exclude(claimed_by="").count() == 0
    candidates = Candidate.objects.filter(session_id__in=session_ids)
    per_session = candidates.values("session_id").annotate(n=Count("id"))
    assert candidates.count() == SESSIONS and {row["n"] for row in per_session} == {1}
    for quote, external_id in candidates.values_list("quote", "session__external_id"):
        assert quote == fact_for(int(external_id.rsplit("s", 1)[1])).rstrip(".")
    assert not DreamRun.objects.filter(phase="light", status=DreamRun.Status.RUNNING).exists()
    failed_runs = DreamRun.objects.filter(phase="light", status=DreamRun.Status.FAILED, error__startswith="abandoned")
    assert killed == KILLS and failed_runs.count() >= 1
    # A killed worker's runs either finished before the kill or are now marked abandoned: none lies.
    for run in DreamRun.objects.filter(phase="light", worker__startswith="chaos"):
        if int(run.worker.split(":")[2]) in killed_pids and run.status != DreamRun.Status.OK:
            assert run.error.startswith("abandoned"), run.error
    print(f"\nSTRESS chaos: {SESSIONS} sessions, {killed} SIGKILLs in {elapsed:.1f} s: every session stamped once, "
          f"{candidates.count()} candidates (1 each), {failed_runs.count()} dead runs marked failed, 0 left running")
