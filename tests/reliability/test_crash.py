"""Crash: kill -9 a light-sleep worker process while it holds claimed sessions."""
import os
import signal
import time

import pytest

from chat.models import ChatSession
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory
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


def _night_open(user_id: int) -> bool:
    """Another backend holds the user's deep-sleep advisory lock: its night transaction is open."""
    from django.db import connection

    from dreaming.pipeline.locks import USER_LOCK_NAMESPACE

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            [USER_LOCK_NAMESPACE, user_id % 2_147_483_647],
        )
        return cursor.fetchone()[0] > 0


def test_a_deep_sleep_worker_killed_mid_night_leaves_nothing_half_written():
    session_ids = sessions_seed(users=1, sessions=5, prefix="night")
    assert light_sleep_sweep(worker="evening").sessions_done == 5
    user_id = ChatSession.objects.get(pk=session_ids[0]).user_id
    victim = worker_start("deep", "--users", str(user_id), "--slow-decide", "30", name="deep-victim")
    try:
        _wait_for(lambda: _night_open(user_id), timeout=60, what="the victim to hold the user's night lock")
        time.sleep(1.5)  # feedback is applied by now; it sleeps before deciding, transaction still open
        assert _night_open(user_id)
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    finally:
        if victim.poll() is None:
            victim.kill()

    # The night's transaction died with the worker: no memory, no diary, every candidate still pending.
    assert not Memory.objects.filter(user_id=user_id).exists()
    assert not DiaryEntry.objects.filter(user_id=user_id).exists()
    assert Candidate.objects.filter(user_id=user_id, status=Candidate.Status.PENDING, score__isnull=True).count() == 5
    dead = DreamRun.objects.get(phase="deep", worker__startswith="deep-victim:")
    assert dead.status == DreamRun.Status.RUNNING  # visible as such (and as stuck in /healthz later)

    from django.contrib.auth import get_user_model

    night = deep_sleep_user(user=get_user_model().objects.get(pk=user_id))  # the user's lock died with it
    assert night.status == DreamRun.Status.OK and night.promoted + night.pending + night.dropped > 0
    assert DiaryEntry.objects.filter(user_id=user_id).count() == 1
    assert not Candidate.objects.filter(user_id=user_id, status=Candidate.Status.PENDING, score__isnull=True).exists()
