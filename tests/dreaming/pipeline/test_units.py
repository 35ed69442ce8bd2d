"""Deep sleep and weekly as claimable per-user units, shared by workers (dreaming/pipeline/units.py)."""
import os
import signal
import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from chat.models import ChatSession
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory, NightUnit
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.pipeline.units import night_progress, unit_finish, units_claim, units_plan, units_work
from dreaming.protocol import ProviderUnavailable
from dreaming.providers.local import LocalDreamer
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import UserFactory, candidate_said
from tests.stress.workload import sessions_seed, worker_start


def users_with_news(n: int):
    users = [UserFactory() for _ in range(n)]
    for i, user in enumerate(users):
        candidate_said(user=user, quote=f"I have a dog named Rex{i}", statement=f"User has a dog named Rex{i}", importance=0.8)
    return users


@pytest.mark.django_db
def test_planning_twice_creates_one_open_unit_per_user_who_needs_the_night():
    users = users_with_news(3)
    UserFactory()  # nothing new: no unit
    assert units_plan(phase="deep") == 3
    assert units_plan(phase="deep") == 0  # a second cluster's schedule, or `dream --now` elsewhere
    assert sorted(NightUnit.objects.values_list("user_id", flat=True)) == sorted(u.pk for u in users)
    assert set(NightUnit.objects.values_list("status", flat=True)) == {"waiting"}


@pytest.mark.django_db
def test_a_worker_runs_every_unit_once_and_the_nights_are_applied():
    users = users_with_news(4)
    units_plan(phase="deep")
    report = units_work(phase="deep", worker="w1")
    assert (report.done, report.retry, report.failed, report.stopped) == (4, 0, 0, "")
    assert set(NightUnit.objects.values_list("status", flat=True)) == {"done"}
    assert Memory.objects.filter(user__in=users, status="active").count() == 4
    # Each unit points at its user's own run.
    for unit in NightUnit.objects.select_related("run"):
        assert unit.run.user_id == unit.user_id and unit.run.status == DreamRun.Status.OK
    assert units_work(phase="deep", worker="w2").runs == []  # nothing left to claim


@pytest.mark.django_db
def test_a_poison_user_is_retried_then_failed_with_its_error_and_does_not_block_the_rest(settings, monkeypatch):
    settings.DREAM_MAX_ATTEMPTS = 2
    good, poison = users_with_news(2)
    units_plan(phase="deep")
    from dreaming.pipeline import deep

    original = deep._deep_sleep_one

    def explode_for_poison(**kwargs):
        if kwargs["user"].pk == poison.pk:
            raise RuntimeError("poison pill")
        return original(**kwargs)

    monkeypatch.setattr(deep, "_deep_sleep_one", explode_for_poison)
    first = units_work(phase="deep", worker="w1")
    assert (first.done, first.retry) == (1, 1)  # back to waiting: an attempt is left
    assert units_work(phase="deep", worker="w1").runs == []  # ... after the stale window, not in a tight loop
    NightUnit.objects.filter(user=poison).update(claimed_at=timezone.now() - timedelta(hours=1))
    second = units_work(phase="deep", worker="w1")
    assert second.failed == 1
    unit = NightUnit.objects.get(user=poison)
    assert unit.status == "failed" and unit.attempts == 2 and "poison pill" in unit.error
    assert NightUnit.objects.get(user=good).status == "done"


@pytest.mark.django_db
def test_a_model_that_is_down_releases_the_unit_uncounted_and_stops_the_worker(monkeypatch):
    users_with_news(2)
    units_plan(phase="deep")

    class DownEmbedder:
        name, dimensions = "down", 512

        def embed(self, texts, **kwargs):
            raise ProviderUnavailable("connection refused")

    report = units_work(phase="deep", worker="w1", embedder=DownEmbedder())
    assert "connection refused" in report.stopped and report.done == 0
    assert list(NightUnit.objects.values_list("status", "attempts")) == [("waiting", 0)] * 2


@pytest.mark.django_db
def test_a_stale_claim_is_retaken_and_the_late_owner_cannot_overwrite_it(settings):
    (user,) = users_with_news(1)
    units_plan(phase="deep")
    (dead,) = units_claim(phase="deep", worker="dead")
    assert units_claim(phase="deep", worker="early") == []  # inside the stale window
    NightUnit.objects.filter(pk=dead.unit_id).update(claimed_at=timezone.now() - timedelta(hours=1))
    (rescue,) = units_claim(phase="deep", worker="rescuer")
    assert rescue.unit_id == dead.unit_id and rescue.attempts == 2
    late_run = DreamRun.objects.create(phase="deep", user=user, started_at=timezone.now(), status="ok")
    assert unit_finish(claim=dead, run=late_run) == ""  # the claim was lost: nothing written
    assert NightUnit.objects.get(pk=dead.unit_id).claimed_by == "rescuer"


@pytest.mark.django_db(transaction=True)
def test_parallel_lanes_share_the_units_and_no_user_is_processed_twice(settings):
    settings.DREAM_MODEL_CONCURRENCY = 3
    users = users_with_news(9)
    units_plan(phase="deep")

    class Remote(LocalDreamer):
        calls_network = True  # the lanes run in threads, as they do for a remote model

    class SlowEmbedder(LocalEmbedder):
        """Embedding each night's statements takes a while; counts the nights in flight at once."""

        lock, active, most = threading.Lock(), 0, 0

        def embed(self, texts, **kwargs):
            with SlowEmbedder.lock:
                SlowEmbedder.active += 1
                SlowEmbedder.most = max(SlowEmbedder.most, SlowEmbedder.active)
            time.sleep(0.05)
            try:
                return super().embed(texts, **kwargs)
            finally:
                with SlowEmbedder.lock:
                    SlowEmbedder.active -= 1

    report = units_work(phase="deep", worker="w1", dreamer=Remote(), embedder=SlowEmbedder(dimensions=settings.EMBEDDING_DIM))
    assert report.done == 9 and SlowEmbedder.most > 1
    runs = DreamRun.objects.filter(phase="deep", user__in=users)
    assert runs.count() == 9 and len(set(runs.values_list("user_id", flat=True))) == 9
    assert Memory.objects.filter(user__in=users).count() == 9


@pytest.mark.django_db
def test_progress_counts_tonights_units_and_the_expected_finish():
    users_with_news(3)
    units_plan(phase="deep")
    before = night_progress(phase="deep")
    assert (before.waiting, before.done, before.total) == (3, 0, 3) and before.expected_finish is None
    units_claim(phase="deep", worker="w1")
    middle = night_progress(phase="deep")
    assert (middle.waiting, middle.running) == (2, 1)
    units_work(phase="deep", worker="w2")
    after = night_progress(phase="deep")
    assert after.done == 2 and after.running == 1 and after.per_minute > 0 and after.expected_finish is not None


@pytest.mark.django_db
def test_a_night_that_will_not_finish_before_the_next_one_is_flagged():
    users_with_news(2)
    units_plan(phase="deep")
    assert not night_progress(phase="deep").late  # just planned
    # Planned 20 hours ago and nothing finished since: it will not be done before the next night.
    NightUnit.objects.update(planned_at=timezone.now() - timedelta(hours=20))
    assert night_progress(phase="deep").late


@pytest.mark.django_db(transaction=True)
def test_a_unit_worker_killed_mid_user_is_retaken_after_the_stale_window_and_applied_once(settings):
    session_ids = sessions_seed(users=3, sessions=6, prefix="units-crash")
    assert light_sleep_sweep(worker="evening").sessions_done == 6
    user_ids = sorted(set(ChatSession.objects.filter(pk__in=session_ids).values_list("user_id", flat=True)))
    assert units_plan(phase="deep") == 3
    victim = worker_start("units", "--slow-narrate", "30", name="units-victim")
    try:
        deadline = time.monotonic() + 60
        while not NightUnit.objects.filter(status="running").exists():
            assert time.monotonic() < deadline, "the victim never claimed a unit"
            time.sleep(0.05)
        time.sleep(1.5)  # its user's memories are written; it sleeps in narrate, the transaction open
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    finally:
        if victim.poll() is None:
            victim.kill()
    held = NightUnit.objects.get(status="running")
    assert held.claimed_by.startswith("units-victim")
    assert not Memory.objects.filter(user_id=held.user_id).exists()  # nothing half-applied

    early = units_work(phase="deep", worker="rescuer-early")  # the others go on; the held one waits
    assert early.done == 2 and NightUnit.objects.get(pk=held.pk).status == "running"
    settings.DREAM_CLAIM_STALE_SECONDS = 1
    time.sleep(1.2)
    rescue = units_work(phase="deep", worker="rescuer")
    assert rescue.done == 1
    assert set(NightUnit.objects.values_list("status", flat=True)) == {"done"}
    for user_id in user_ids:  # every night applied exactly once
        assert DiaryEntry.objects.filter(user_id=user_id).count() == 1
        assert not Candidate.objects.filter(user_id=user_id, status="pending", score__isnull=True).exists()
    assert get_user_model().objects.filter(pk__in=user_ids).count() == 3
    connection.close()


@pytest.mark.django_db
def test_the_dashboard_and_healthz_show_tonights_units(client):
    staff = UserFactory(is_staff=True)
    users_with_news(2)
    units_plan(phase="deep")
    units_claim(phase="deep", worker="w1")
    client.force_login(staff)
    page = client.get("/staff/dreaming/").content.decode()
    assert 'id="night-deep"' in page and "Tonight" in page
    health = client.get("/healthz").json()
    assert health["nights"]["deep"]["waiting"] == 1 and health["nights"]["deep"]["running"] == 1
    NightUnit.objects.update(planned_at=timezone.now() - timedelta(hours=30))
    late = client.get("/healthz")
    assert late.status_code == 503 and "deep night late" in late.json()["problems"]
