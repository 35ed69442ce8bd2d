"""Crash: kill -9 a light-sleep worker process while it holds claimed sessions."""
import os
import signal
import time

import pytest

from chat.models import ChatSession
from dreaming.light import light_sleep_sweep
from dreaming.models import Candidate, DreamRun
from tests.stress.workload import sessions_seed, worker_start

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for(predicate, *, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_worker_killed_mid_batch_leaves_nothing_half_written_and_another_finishes_its_sessions(settings):
    session_ids = sessions_seed(users=2, sessions=6, prefix="crash")
    sessions = ChatSession.objects.filter(pk__in=session_ids)
    # Each extraction takes 1 s, so the kill lands with 2 sessions stamped and 4 still claimed.
    victim = worker_start("light", "--batch", "6", "--slow-extract", "1.0", name="victim")
    try:
        _wait_for(lambda: sessions.filter(dreamed_at__isnull=False).count() >= 2, timeout=60, what="2 stamped")
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    finally:
        if victim.poll() is None:
            victim.kill()
    assert victim.returncode == -signal.SIGKILL

    stamped = set(sessions.filter(dreamed_at__isnull=False).values_list("pk", flat=True))
    claimed = set(sessions.filter(dreamed_at__isnull=True).exclude(claimed_by="").values_list("pk", flat=True))
    assert 2 <= len(stamped) < 6 and claimed == set(session_ids) - stamped
    # Nothing half-written: candidates exist exactly for the stamped sessions (one transaction each).
    assert set(Candidate.objects.filter(session_id__in=session_ids).values_list("session_id", flat=True)) == stamped
    dead_run = DreamRun.objects.get(worker__startswith="victim:")
    assert dead_run.status == DreamRun.Status.RUNNING and dead_run.finished_at is None

    # Inside the stale window nobody may take the dead worker's claims (it might still be alive).
    early = light_sleep_sweep(worker="rescuer-early")
    assert early.sessions_claimed == 0

    settings.DREAM_CLAIM_STALE_SECONDS = 1
    time.sleep(1.2)
    rescue = light_sleep_sweep(worker="rescuer")
    assert rescue.sessions_claimed == len(claimed) and rescue.status == DreamRun.Status.OK

    # Every session now processed exactly once overall: the victim's finished ones were not redone.
    assert sessions.filter(dreamed_at__isnull=True).count() == 0 and sessions.exclude(claimed_by="").count() == 0
    per_session = [Candidate.objects.filter(session_id=pk).count() for pk in session_ids]
    assert per_session == [1] * 6
    assert set(Candidate.objects.filter(session_id__in=stamped).values_list("run_id", flat=True)) == {dead_run.pk}
    assert set(Candidate.objects.filter(session_id__in=claimed).values_list("run_id", flat=True)) == {rescue.pk}

    # The run records the failure: the next sweep marked the dead worker's run failed.
    dead_run.refresh_from_db()
    assert dead_run.status == DreamRun.Status.FAILED and dead_run.finished_at is not None
    assert "abandoned" in dead_run.error
    assert dead_run.sessions_done == len(stamped)  # counters show what it did before dying
