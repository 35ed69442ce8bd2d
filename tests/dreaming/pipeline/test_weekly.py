"""Weekly consolidation on real Postgres: decay, eviction, duplicate merge, outdated plans, expiry."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.models import Candidate, DreamRun, Feedback, Memory, MemorySource
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.pipeline.weekly import weekly_consolidate_all, weekly_consolidate_user
from tests.factories import CandidateFactory, MemoryFactory, MemorySourceFactory, candidate_said
from tests.support.deep import ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 8, 4, 0, tzinfo=dt_timezone.utc)
EMBEDDER = LocalEmbedder(dimensions=512)


def memory_at(user, *, days_ago, embed=True, **fields):
    seen = NOW - timedelta(days=days_ago)
    memory = MemoryFactory(user=user, first_seen=seen, last_seen=seen, valid_from=seen, **fields)
    if embed:
        memory.embedding = EMBEDDER.embed([memory.statement])[0]
        memory.save(update_fields=["embedding"])
    return memory


def weekly(user, now=NOW, dreamer=None, dry_run=False) -> DreamRun:
    return weekly_consolidate_user(user=user, now=now, dreamer=dreamer or ScriptedDreamer(), embedder=EMBEDDER,
                                   dry_run=dry_run)


def test_events_fade_fast_facts_slowly_and_a_second_run_does_not_decay_twice(user):
    event = memory_at(user, days_ago=30, statement="User ran a marathon in Berlin", category="event",
                      confidence=0.8, half_life_days=30.0)
    fact = memory_at(user, days_ago=30, statement="User has a sister named Anna", category="relation",
                     confidence=0.8, half_life_days=365.0)

    run = weekly(user)
    again = weekly(user)

    event.refresh_from_db(); fact.refresh_from_db()
    assert event.confidence == pytest.approx(0.40, abs=0.001)
    assert fact.confidence == pytest.approx(0.8 * 0.5 ** (30 / 365), abs=0.001)
    assert run.decayed == 2 and again.decayed == 0


def test_decay_continues_from_the_last_run_not_from_last_seen(user):
    event = memory_at(user, days_ago=30, statement="User ran a marathon in Berlin", category="event",
                      confidence=0.8, half_life_days=30.0)
    weekly(user, now=NOW - timedelta(days=15))
    weekly(user)
    event.refresh_from_db()
    assert event.confidence == pytest.approx(0.40, abs=0.001)


def test_an_agreed_memory_resists_decay(user):
    plain = memory_at(user, days_ago=30, statement="User ran a marathon in Berlin", category="event",
                      confidence=0.8, half_life_days=30.0)
    agreed = memory_at(user, days_ago=30, statement="User climbed Mount Fuji", category="event",
                       confidence=0.8, half_life_days=30.0)
    Feedback.objects.create(user=user, memory=agreed, verdict="agree", applied_at=NOW - timedelta(days=31))

    weekly(user)

    plain.refresh_from_db(); agreed.refresh_from_db()
    assert agreed.confidence == pytest.approx(0.8 * 0.5 ** 0.5, abs=0.001)
    assert agreed.confidence > plain.confidence


def test_decay_and_eviction_write_all_of_a_users_memories_in_one_statement_each(user, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    kept = [memory_at(user, days_ago=30, embed=False, statement=f"User keeps {n} plants", category="fact",
                      confidence=0.8, half_life_days=365.0, score_breakdown={"parts": {"n": n}}) for n in range(6)]
    faded = [memory_at(user, days_ago=200, embed=False, statement=f"User felt tired on day {n}", category="emotion",
                       confidence=0.5, half_life_days=14.0) for n in range(4)]

    with CaptureQueriesContext(connection) as captured:
        run = weekly(user)

    memory_updates = [q["sql"] for q in captured if q["sql"].lstrip().replace('"', "").startswith("UPDATE dreaming_memory ")]
    assert len(memory_updates) == 2 and (run.decayed, run.evicted) == (10, 4)
    for memory in kept:
        memory.refresh_from_db()
        assert memory.status == Memory.Status.ACTIVE and memory.confidence == pytest.approx(0.8 * 0.5 ** (30 / 365), abs=0.001)
        assert memory.score_breakdown["parts"] == {"n": kept.index(memory)} and "decayed_at" in memory.score_breakdown
    for memory in faded:
        memory.refresh_from_db()
        assert memory.status == Memory.Status.ARCHIVED and memory.confidence < settings.DREAM_EVICT_CONFIDENCE
        assert memory.score_breakdown["archived_reason"] == "evicted: faded and not mentioned"
        assert "decayed_at" in memory.score_breakdown  # the eviction kept what decay wrote


def test_faded_memories_not_mentioned_for_long_are_evicted(user, settings):
    faded = memory_at(user, days_ago=120, statement="User felt tired on Monday", category="emotion",
                      confidence=0.5, half_life_days=14.0)
    faded_but_recent = memory_at(user, days_ago=10, statement="User felt happy about the trip", category="emotion",
                                 confidence=0.12, half_life_days=14.0)
    user_written = memory_at(user, days_ago=200, statement="User wrote this", category="emotion",
                             confidence=0.10, half_life_days=14.0, user_set=True)
    past_event = memory_at(user, days_ago=300, statement="User watched the Lord of the Rings trilogy on 1 May 2025",
                           category="event", confidence=0.5, half_life_days=30.0)

    run = weekly(user)

    faded.refresh_from_db(); faded_but_recent.refresh_from_db(); user_written.refresh_from_db(); past_event.refresh_from_db()
    assert faded.status == Memory.Status.ARCHIVED and "evicted" in faded.score_breakdown["archived_reason"]
    assert faded_but_recent.status == Memory.Status.ACTIVE
    assert user_written.status == Memory.Status.ACTIVE
    # An event fades (it leaves MEMORY.md's top) but stays recallable: what happened stays true.
    assert past_event.status == Memory.Status.ACTIVE and past_event.confidence < settings.DREAM_EVICT_CONFIDENCE
    assert run.evicted == 1


def test_duplicates_merge_keeping_sources_recurrence_and_the_earliest_first_seen(user):
    older = memory_at(user, days_ago=40, statement="User has a dog named Milo", recurrence=2, confidence=0.6)
    newer = memory_at(user, days_ago=5, statement="User has a dog, named Milo", recurrence=3, confidence=0.7)
    other = memory_at(user, days_ago=5, statement="User works as a nurse in Leeds")
    for i in range(3):
        MemorySourceFactory(memory=older, quote=f"older {i}", said_at=NOW - timedelta(days=40 - i))
    for i in range(3):
        MemorySourceFactory(memory=newer, quote=f"newer {i}", said_at=NOW - timedelta(days=5 - i))
    pointing = CandidateFactory(user=user, memory=older, status=Candidate.Status.PROMOTED, said_at=NOW - timedelta(days=40))

    run = weekly(user)

    newer.refresh_from_db(); older.refresh_from_db(); other.refresh_from_db(); pointing.refresh_from_db()
    assert run.merged == 1
    assert newer.status == Memory.Status.ACTIVE  # better supported: recurrence 3 beats 2
    assert (older.status, older.superseded_by) == (Memory.Status.ARCHIVED, newer)
    assert newer.recurrence == 3 and newer.confidence == pytest.approx(0.7 * 0.5 ** (5 / 180), abs=0.001)  # the larger one, decayed
    assert newer.first_seen == NOW - timedelta(days=40)
    quotes = list(newer.sources.order_by("said_at").values_list("quote", flat=True))
    assert quotes == ["older 0", "older 2", "newer 0", "newer 1", "newer 2"]  # the first and the newest, 5 in all
    assert not MemorySource.objects.filter(memory=older).exists()
    assert pointing.memory == newer
    assert other.status == Memory.Status.ACTIVE
    assert newer.statement == "User has a dog, named Milo"  # the dreamer's merged statement


def test_memories_in_different_scopes_are_not_merged(user):
    from tests.factories import PersonaFactory

    memory_at(user, days_ago=5, statement="User has a dog named Milo")
    memory_at(user, days_ago=5, statement="User has a dog named Milo", persona=PersonaFactory())
    assert weekly(user).merged == 0
    assert Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).count() == 2


def test_a_passed_plan_becomes_a_dated_event_or_expires(user):
    important = memory_at(user, days_ago=30, statement="User plans to visit Paris next week", category="event",
                          importance=0.8, confidence=0.9)
    minor = memory_at(user, days_ago=30, statement="User will buy new socks tomorrow", category="preference",
                      importance=0.3, confidence=0.9)
    chinese = memory_at(user, days_ago=30, statement="用户打算下周去北京", category="event", importance=0.8)
    fresh = memory_at(user, days_ago=3, statement="User plans to visit Rome next week", category="event",
                      importance=0.8)

    run = weekly(user)

    for memory in (important, minor, chinese, fresh):
        memory.refresh_from_db()
    said = (NOW - timedelta(days=30)).date().isoformat()
    assert important.statement == f"User plans to visit Paris next week (as said on {said})"
    assert important.category == "event" and important.status == Memory.Status.ACTIVE
    assert chinese.statement.startswith("用户打算下周去北京（") and chinese.status == Memory.Status.ACTIVE
    assert minor.status == Memory.Status.ARCHIVED and minor.valid_to == NOW - timedelta(days=16)
    assert fresh.statement == "User plans to visit Rome next week"
    assert run.expired == 3
    assert weekly(user).expired == 0  # corrected once


def test_a_superseded_chain_keeps_only_its_head_active(user):
    head = memory_at(user, days_ago=1, statement="User lives in Osaka")
    middle = memory_at(user, days_ago=50, statement="User lives in Tokyo")
    Memory.objects.filter(pk=middle.pk).update(superseded_by=head)

    run = weekly(user)

    middle.refresh_from_db(); head.refresh_from_db()
    assert middle.status == Memory.Status.SUPERSEDED and middle.valid_to == head.valid_from
    assert head.status == Memory.Status.ACTIVE and run.superseded == 1


def test_pending_candidates_expire_after_the_window(user):
    old = candidate_said(user=user, quote="I like jazz", statement="User likes jazz", said_at=NOW - timedelta(days=61))
    recent = candidate_said(user=user, quote="I like rock", statement="User likes rock", said_at=NOW - timedelta(days=10))

    run = weekly(user)

    old.refresh_from_db(); recent.refresh_from_db()
    assert old.status == Candidate.Status.DISMISSED and "Expired" in old.reason and old.decided_at == NOW
    assert recent.status == Candidate.Status.PENDING
    assert run.expired == 1


def test_weekly_dry_run_writes_nothing(user):
    event = memory_at(user, days_ago=30, statement="User ran a marathon in Berlin", category="event",
                      confidence=0.8, half_life_days=30.0)
    run = weekly(user, dry_run=True)
    event.refresh_from_db()
    assert run.decayed == 1 and run.dry_run
    assert event.confidence == 0.8 and "decayed_at" not in event.score_breakdown


def test_weekly_all_covers_users_with_memories_and_skips_memory_off(user, other_user):
    from dreaming.models import MemorySettings

    memory_at(user, days_ago=30, statement="User ran a marathon in Berlin", category="event", half_life_days=30.0)
    off = memory_at(other_user, days_ago=30, statement="User ran in Paris", category="event", half_life_days=30.0,
                    confidence=0.8)
    MemorySettings.objects.create(user=other_user, enabled=False)

    run = weekly_consolidate_all(now=NOW, dreamer=ScriptedDreamer(), embedder=EMBEDDER)

    off.refresh_from_db()
    assert run.users_processed == 1 and run.decayed == 1 and off.confidence == 0.8


def test_the_spouse_said_in_two_ways_merges_into_the_fuller_memory(user):
    married = memory_at(user, days_ago=5, statement="User is married to a doctor", category="relation")
    wife = memory_at(user, days_ago=5, statement="User's wife is a doctor at the city hospital", category="relation")
    sister = memory_at(user, days_ago=5, statement="User's sister is a doctor", category="relation")

    assert weekly(user).merged == 1

    survivors = Memory.objects.filter(user=user, status=Memory.Status.ACTIVE)
    assert sister in survivors and len([m for m in survivors if m.pk in (married.pk, wife.pk)]) == 1
