"""Which sessions light sleep claims, and that parallel workers never share one (real Postgres)."""
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from chat.models import ChatSession
from dreaming.pipeline.claims import sessions_claim
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, MemorySettings
from tests.factories import ChatSessionFactory
from tests.support.light import FakeDreamer, FakeEmbedder, messages_add, idle_session, sweep


def test_idle_sessions_are_claimed_and_active_ones_are_not(user, settings):
    settings.DREAM_IDLE_SECONDS = 1800
    now = timezone.now()
    started = now - timedelta(hours=1)
    idle = ChatSessionFactory(user=user, started_at=started, last_active_at=now - timedelta(minutes=31))
    active = ChatSessionFactory(user=user, started_at=started, last_active_at=now - timedelta(minutes=5))
    for session in (idle, active):
        messages_add(session, ("user", "I live in Lisbon."))

    run = sweep(worker="w1")

    idle.refresh_from_db()
    active.refresh_from_db()
    assert run.sessions_claimed == 1 and idle.dreamed_at is not None
    assert (active.dreamed_at, active.claimed_at, active.attempts) == (None, None, 0)
    assert not Candidate.objects.filter(session=active).exists()


def test_the_claim_is_one_statement_that_marks_worker_time_and_attempt(user):
    sessions = [idle_session(user) for _ in range(3)]
    ids, claimed_at = sessions_claim(now=timezone.now(), worker="w-a", batch_size=2)
    assert ids == [s.pk for s in sorted(sessions, key=lambda s: s.last_active_at)][:2]  # oldest first
    rows = ChatSession.objects.filter(pk__in=ids)
    assert {(r.claimed_by, r.claimed_at, r.attempts) for r in rows} == {("w-a", claimed_at, 1)}
    assert ChatSession.objects.filter(claimed_at__isnull=True).count() == 1


def test_a_stale_claim_is_retaken_and_a_fresh_one_is_not(user, settings):
    settings.DREAM_CLAIM_STALE_SECONDS = 600
    stale = idle_session(user, claimed_at=timezone.now() - timedelta(seconds=700), claimed_by="dead-worker", attempts=1)
    fresh = idle_session(user, claimed_at=timezone.now() - timedelta(seconds=60), claimed_by="busy-worker", attempts=1)
    for session in (stale, fresh):
        messages_add(session, ("user", "I live in Lisbon."))

    run = sweep(worker="w2")

    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert run.sessions_claimed == 1
    assert stale.dreamed_at is not None and stale.claimed_at is None
    assert (fresh.dreamed_at, fresh.claimed_by, fresh.attempts) == (None, "busy-worker", 1)


def test_a_worker_whose_claim_was_taken_over_throws_its_results_away(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))

    class SlowDreamer(FakeDreamer):
        def extract(self, *, turns, ctx):
            # While we "think", our claim goes stale and another worker takes the session.
            ChatSession.objects.filter(pk=session.pk).update(claimed_by="other", claimed_at=timezone.now())
            return super().extract(turns=turns, ctx=ctx)

    run = sweep(dreamer=SlowDreamer(), worker="slow")

    session.refresh_from_db()
    assert (run.sessions_failed, run.sessions_done) == (1, 0)
    assert session.dreamed_at is None and session.claimed_by == "other"
    assert Candidate.objects.count() == 0  # nothing doubled


def test_memory_off_users_are_never_claimed(user, other_user):
    MemorySettings.objects.create(user=user, enabled=False)
    MemorySettings.objects.create(user=other_user, enabled=True)
    off = idle_session(user)
    on = idle_session(other_user)
    for session in (off, on):
        messages_add(session, ("user", "I live in Lisbon."))

    assert sweep(user=user).sessions_claimed == 0
    assert sweep(session_ids=[off.pk]).sessions_claimed == 0
    run = sweep()

    off.refresh_from_db()
    assert run.sessions_claimed == 1
    assert (off.dreamed_at, off.claimed_at, off.attempts, off.triage_kind) == (None, None, 0, "")
    assert not Candidate.objects.filter(user=user).exists()
    assert Candidate.objects.filter(user=other_user).count() == 1


def test_memory_switched_off_while_dreaming_stores_nothing(user):
    session = idle_session(user)
    messages_add(session, ("user", "I live in Lisbon."))

    class SwitchOffDreamer(FakeDreamer):
        def extract(self, *, turns, ctx):
            MemorySettings.objects.update_or_create(user=user, defaults={"enabled": False})
            return super().extract(turns=turns, ctx=ctx)

    run = sweep(dreamer=SwitchOffDreamer())

    session.refresh_from_db()
    assert not Candidate.objects.exists() and run.candidates_created == 0
    assert (session.dreamed_at, session.claimed_at, session.attempts) == (None, None, 0)


def test_user_and_session_filters_restrict_the_claim(user, other_user):
    mine_a, mine_b, theirs = idle_session(user), idle_session(user), idle_session(other_user)
    assert sweep(session_ids=[mine_a.pk, theirs.pk], user=user).sessions_claimed == 1
    mine_a.refresh_from_db()
    mine_b.refresh_from_db()
    theirs.refresh_from_db()
    assert mine_a.dreamed_at is not None and mine_b.dreamed_at is None and theirs.dreamed_at is None


def test_a_batch_size_limits_one_sweep(user):
    for _ in range(5):
        idle_session(user)
    assert sweep(batch_size=2).sessions_claimed == 2
    assert ChatSession.objects.filter(dreamed_at__isnull=True).count() == 3


# --- real parallel connections ---------------------------------------------------------------------


def _in_thread(target, results, key):
    def run():
        try:
            results[key] = target()
        except BaseException as exc:  # surfaced by the test
            results[key] = exc
        finally:
            connection.close()  # each thread had its own connection

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_a_second_claimer_skips_rows_locked_by_an_uncommitted_first_claim(django_user_model):
    user = django_user_model.objects.create(username="parallel")
    ids = {idle_session(user).pk for _ in range(10)}
    first_claimed, second_done = threading.Event(), threading.Event()
    results = {}

    def first():
        with transaction.atomic():  # keep the first claim's row locks held, uncommitted
            claimed, _ = sessions_claim(now=timezone.now(), worker="A", batch_size=6)
            first_claimed.set()
            second_done.wait(timeout=20)
        return claimed

    def second():
        first_claimed.wait(timeout=20)
        started = time.monotonic()
        claimed, _ = sessions_claim(now=timezone.now(), worker="B", batch_size=100)
        second_done.set()
        return claimed, time.monotonic() - started

    threads = [_in_thread(first, results, "A"), _in_thread(second, results, "B")]
    for thread in threads:
        thread.join(timeout=30)

    claimed_a = results["A"]
    claimed_b, waited = results["B"]
    assert len(claimed_a) == 6 and len(claimed_b) == 4
    assert set(claimed_a).isdisjoint(claimed_b) and set(claimed_a) | set(claimed_b) == ids
    assert waited < 5  # SKIP LOCKED: B did not wait for A's transaction
    owners = dict(ChatSession.objects.values_list("id", "claimed_by"))
    assert {owners[pk] for pk in claimed_a} == {"A"} and {owners[pk] for pk in claimed_b} == {"B"}


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sweeps_process_disjoint_sessions_exactly_once(django_user_model):
    user = django_user_model.objects.create(username="racer")
    sessions = []
    for i in range(16):
        session = idle_session(user)
        messages_add(session, ("user", f"My favourite number is {i}."))
        sessions.append(session)
    start = threading.Barrier(2)
    results = {}

    def worker(name):
        def run():
            start.wait(timeout=20)
            return light_sleep_sweep(worker=name, batch_size=10, dreamer=FakeDreamer(), embedder=FakeEmbedder())
        return run

    threads = [_in_thread(worker("W1"), results, "W1"), _in_thread(worker("W2"), results, "W2")]
    for thread in threads:
        thread.join(timeout=60)

    run_1, run_2 = results["W1"], results["W2"]
    assert not isinstance(run_1, BaseException) and not isinstance(run_2, BaseException)
    assert run_1.sessions_claimed + run_2.sessions_claimed == 16
    assert run_1.sessions_done + run_2.sessions_done == 16
    per_session = list(Candidate.objects.values_list("session_id", flat=True))
    assert sorted(per_session) == sorted(s.pk for s in sessions)  # each exactly once
    by_run = {run_1.pk: set(), run_2.pk: set()}
    for session_id, run_id in Candidate.objects.values_list("session_id", "run_id"):
        by_run[run_id].add(session_id)
    assert by_run[run_1.pk].isdisjoint(by_run[run_2.pk])
    assert not ChatSession.objects.filter(dreamed_at__isnull=True).exists()
