"""Deep sleep on real Postgres: promotion / pending / drop, recurrence, contradiction, reinforcement."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.utils import timezone

from dreaming.pipeline.deep import deep_sleep_all, deep_sleep_user
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory, MemoryDocument, MemorySettings, MemorySource
from dreaming.memory.tombstones import tombstone_add
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, MessageFactory, candidate_said
from tests.support.deep import EMBEDDER, ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


def memory_with_embedding(**fields) -> Memory:
    memory = MemoryFactory(**fields)
    memory.embedding = EMBEDDER.embed([memory.statement])[0]
    memory.save(update_fields=["embedding"])
    return memory


def run_night(user, *, now=NOW, dreamer=None, dry_run=False) -> DreamRun:
    return deep_sleep_user(user=user, now=now, dreamer=dreamer or ScriptedDreamer(), embedder=EMBEDDER, dry_run=dry_run)


def test_it_promotes_a_strong_candidate_keeps_a_middling_one_pending_and_dismisses_a_weak_one(user):
    said = NOW - timedelta(hours=6)
    strong = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                            importance=0.8, said_at=said)
    # A bare "yes" to the assistant's question: the statement is built from the assistant's words, so it
    # gets no initiative credit (an answer in the user's own words would be promoted: tests/test_quality2_*).
    middling = candidate_said(user=user, quote="Yes, I do", statement="User likes jazz music",
                              category="preference", importance=0.6, user_initiated=False, said_at=said)
    weak = candidate_said(user=user, quote="it is ok", statement="User is ok", importance=0.1,
                          user_initiated=False, said_at=said)

    run = run_night(user)

    assert run.status == DreamRun.Status.OK, run.error
    assert (run.promoted, run.pending, run.dropped, run.users_processed) == (1, 1, 1, 1)
    memory = Memory.objects.get(user=user)
    assert memory.statement == "User has a dog named Milo"
    assert memory.status == Memory.Status.ACTIVE
    assert memory.valid_from == memory.first_seen == memory.last_seen == said
    assert memory.recurrence == 1 and memory.half_life_days == 365.0
    assert memory.confidence == pytest.approx(memory.score) and memory.score >= 0.50
    assert set(memory.score_breakdown["parts"]) == {
        "importance", "user_initiated", "recurrence", "specificity", "timeliness", "feedback", "stability"}
    assert memory.embedding is not None
    assert [(s.quote, s.message_id, s.said_at) for s in memory.sources.all()] == [(strong.quote, strong.message_id, said)]
    strong.refresh_from_db(); middling.refresh_from_db(); weak.refresh_from_db()
    assert (strong.status, strong.memory, strong.decided_at) == (Candidate.Status.PROMOTED, memory, NOW)
    assert middling.status == Candidate.Status.PENDING and middling.memory is None and middling.decided_at is None
    assert 0.30 <= middling.score < 0.50 and "Pending" in middling.reason
    assert weak.status == Candidate.Status.DISMISSED and weak.score < 0.30 and weak.memory is None


def test_a_pending_candidate_is_promoted_when_it_recurs_in_a_later_session(user):
    first_said = NOW - timedelta(days=3)
    first = candidate_said(user=user, quote="Yes, I do", statement="User likes jazz music",
                           category="preference", importance=0.6, user_initiated=False, said_at=first_said)
    run_night(user, now=first_said + timedelta(hours=8))
    first.refresh_from_db()
    assert first.status == Candidate.Status.PENDING and not Memory.objects.filter(user=user).exists()

    later_said = NOW - timedelta(hours=5)
    later = candidate_said(user=user, quote="Yes, still", statement="User likes jazz music",
                           category="preference", importance=0.6, user_initiated=False, said_at=later_said)
    run = run_night(user)

    memory = Memory.objects.get(user=user)
    assert run.promoted == 1
    assert memory.recurrence == 2
    assert (memory.first_seen, memory.last_seen, memory.valid_from) == (first_said, later_said, first_said)
    assert memory.score_breakdown["parts"]["recurrence"] == 1.0
    assert sorted(memory.sources.values_list("said_at", flat=True)) == [first_said, later_said]
    assert set(Candidate.objects.filter(pk__in=[first.pk, later.pk]).values_list("status", flat=True)) == {"promoted"}


def test_the_same_thing_twice_in_one_session_is_not_recurrence(user):
    said = NOW - timedelta(hours=5)
    first = candidate_said(user=user, quote="Yes, I do", statement="User likes jazz music",
                           category="preference", importance=0.6, user_initiated=False, said_at=said)
    candidate_said(user=user, session=first.session, quote="yes really", statement="User likes jazz music",
                   category="preference", importance=0.6, user_initiated=False, said_at=said + timedelta(minutes=1))

    run = run_night(user)

    assert run.promoted == 0 and run.pending == 2
    assert not Memory.objects.filter(user=user).exists()


def test_a_contradiction_supersedes_the_old_memory_with_validity_dates(user):
    lived_since = datetime(2025, 1, 5, tzinfo=dt_timezone.utc)
    shanghai = memory_with_embedding(user=user, statement="User lives in Shanghai", category="fact",
                                     valid_from=lived_since, first_seen=lived_since, last_seen=lived_since)
    moved_said = NOW - timedelta(hours=4)
    candidate_said(user=user, quote="I just moved to Tokyo!", statement="User moved to Tokyo",
                   importance=0.8, said_at=moved_said)
    dreamer = ScriptedDreamer({"User moved to Tokyo": ("contradicts", "User lives in Shanghai")})

    run = run_night(user, dreamer=dreamer)

    shanghai.refresh_from_db()
    tokyo = Memory.objects.get(user=user, status=Memory.Status.ACTIVE)
    assert tokyo.statement == "User moved to Tokyo"
    assert (shanghai.status, shanghai.valid_to, shanghai.superseded_by) == (Memory.Status.SUPERSEDED, moved_said, tokyo)
    assert shanghai.valid_from == lived_since  # history stays explainable
    assert tokyo.valid_from == moved_said and tokyo.valid_to is None
    assert (run.promoted, run.superseded) == (1, 1)
    assert dreamer.compared == [(["User moved to Tokyo"], ["User lives in Shanghai"])]
    [line] = DiaryEntry.objects.get(user=user).lines
    assert line["kind"] == "changed" and line["texts"] == ["User lives in Shanghai", "User moved to Tokyo"]


def test_a_weak_contradiction_waits_in_the_pool_and_supersedes_nothing(user):
    shanghai = memory_with_embedding(user=user, statement="User lives in Shanghai", category="fact")
    candidate = candidate_said(user=user, quote="tokyo maybe", statement="User moved to Tokyo", importance=0.4,
                               user_initiated=False, said_at=NOW - timedelta(hours=4))
    run_night(user, dreamer=ScriptedDreamer({"User moved to Tokyo": ("contradicts", "User lives in Shanghai")}))

    shanghai.refresh_from_db(); candidate.refresh_from_db()
    assert shanghai.status == Memory.Status.ACTIVE and shanghai.valid_to is None and shanghai.superseded_by is None
    assert candidate.status == Candidate.Status.PENDING and f"contradict memory #{shanghai.pk}" in candidate.reason


def test_reinforcing_counts_each_distinct_session_once_and_raises_confidence(user):
    first_seen = NOW - timedelta(days=20)
    milo = memory_with_embedding(user=user, statement="User has a dog named Milo", confidence=0.6, recurrence=1,
                                 first_seen=first_seen, last_seen=first_seen, valid_from=first_seen)
    old_session = ChatSessionFactory(user=user)
    old_message = MessageFactory(session=old_session, content="I have a dog named Milo", created_at=first_seen)
    MemorySourceFactory(memory=milo, message=old_message, quote="I have a dog named Milo", said_at=first_seen)
    again_same_session = candidate_said(user=user, session=old_session, quote="Milo my dog",
                                        statement="User has a dog named Milo", said_at=NOW - timedelta(hours=7))
    new_session = candidate_said(user=user, quote="Milo, my dog, again", statement="User has a dog named Milo",
                                 said_at=NOW - timedelta(hours=3))
    dreamer = ScriptedDreamer({"User has a dog named Milo": ("reinforces", "User has a dog named Milo")})

    run = run_night(user, dreamer=dreamer)

    milo.refresh_from_db()
    assert run.reinforced == 1 and run.promoted == 0
    assert Memory.objects.filter(user=user).count() == 1
    assert milo.recurrence == 2  # the old session again adds nothing; the new one adds one
    assert milo.confidence == pytest.approx(0.65)
    assert milo.last_seen == NOW - timedelta(hours=3) and milo.first_seen == first_seen
    assert milo.sources.count() == 3
    for candidate in (again_same_session, new_session):
        candidate.refresh_from_db()
        assert (candidate.status, candidate.memory) == (Candidate.Status.MERGED, milo)


def test_reinforcement_keeps_at_most_five_sources_first_and_newest(user):
    start = NOW - timedelta(days=30)
    milo = memory_with_embedding(user=user, statement="User has a dog named Milo", first_seen=start, last_seen=start,
                                 valid_from=start)
    for day in range(5):
        MemorySourceFactory(memory=milo, quote=f"old quote {day}", said_at=start + timedelta(days=day))
    for hours in (9, 5):
        candidate_said(user=user, quote=f"Milo again {hours}", statement="User has a dog named Milo",
                       said_at=NOW - timedelta(hours=hours))

    run_night(user, dreamer=ScriptedDreamer({"User has a dog named Milo": ("reinforces", "User has a dog named Milo")}))

    quotes = list(milo.sources.order_by("said_at").values_list("quote", flat=True))
    assert len(quotes) == Memory.MAX_SOURCES
    assert quotes[0] == "old quote 0" and quotes[-2:] == ["Milo again 9", "Milo again 5"]


def test_a_quote_that_left_its_message_is_rejected_and_never_written(user):
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.9, said_at=NOW - timedelta(hours=2))
    candidate.message.content = "I have a cat."  # edited after light sleep
    candidate.message.save()

    run = run_night(user)

    candidate.refresh_from_db()
    assert candidate.status == Candidate.Status.REJECTED_UNVERIFIED and candidate.decided_at == NOW
    assert run.unverified_rejected == 1 and not Memory.objects.filter(user=user).exists()


def test_a_tombstoned_statement_is_never_written(user):
    tombstone_add(user=user, statement="User has a dog named Milo")
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.9, said_at=NOW - timedelta(hours=2))

    run = run_night(user)

    candidate.refresh_from_db()
    assert candidate.status == Candidate.Status.DISMISSED and run.tombstoned_dropped == 1
    assert not Memory.objects.filter(user=user).exists()


def test_the_same_topic_from_two_sessions_clusters_into_one_memory_and_different_ones_do_not(user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.7, said_at=NOW - timedelta(hours=9))
    candidate_said(user=user, quote="my pet dog is Milo", statement="User has a pet dog named Milo",
                   importance=0.7, said_at=NOW - timedelta(hours=4))
    candidate_said(user=user, quote="I like jazz music", statement="User likes jazz music",
                   importance=1.0, said_at=NOW - timedelta(hours=4))
    candidate_said(user=user, quote="I like rock music", statement="User likes rock music",
                   importance=1.0, said_at=NOW - timedelta(hours=3))

    run = run_night(user)

    statements = sorted(Memory.objects.filter(user=user).values_list("statement", "recurrence"))
    assert run.promoted == 3
    # One topic said in two sessions is one memory; a similar-looking but different liking is not.
    assert statements == [
        ("User has a pet dog named Milo", 2), ("User likes jazz music", 1), ("User likes rock music", 1)]


def test_scopes_stay_apart_a_persona_memory_does_not_reinforce_the_profile(user):
    from tests.factories import PersonaFactory

    luna = PersonaFactory(slug="luna")
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    candidate_said(user=user, persona=luna, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=2))

    run_night(user)

    assert sorted(Memory.objects.filter(user=user).values_list("persona__slug", flat=True), key=str) == [None, "luna"]


def test_the_night_is_written_to_the_diary_naming_its_memories(user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    dreamer = ScriptedDreamer()

    run = run_night(user, dreamer=dreamer)

    entry = DiaryEntry.objects.get(user=user)
    memory = Memory.objects.get(user=user)
    assert entry.run_id == run.pk and entry.night == (NOW - timedelta(hours=12)).date()
    assert "User has a dog named Milo" in entry.narrative
    assert list(entry.memories.all()) == [memory]
    assert entry.language == "en" and entry.lines[0]["memory_ids"] == [memory.pk]


def test_a_chinese_night_is_narrated_in_chinese(user):
    candidate_said(user=user, quote="我养了一只狗叫米洛", statement="用户养了一只叫米洛的狗",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    run_night(user)
    entry = DiaryEntry.objects.get(user=user)
    assert entry.language == "zh"
    assert entry.narrative == "我记住了 1 件新事：\n- “用户养了一只叫米洛的狗”"


def test_memory_md_is_rendered_after_deep_sleep(user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    run_night(user)
    document = MemoryDocument.objects.get(user=user, persona=None)
    assert "Milo" in document.content


def test_dry_run_reports_the_night_and_writes_nothing(user):
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.8, said_at=NOW - timedelta(hours=3))

    run = run_night(user, dry_run=True)

    candidate.refresh_from_db()
    assert run.dry_run and run.promoted == 1
    assert candidate.status == Candidate.Status.PENDING and candidate.score is None and candidate.embedding is None
    assert not Memory.objects.exists() and not MemorySource.objects.exists()
    assert not DiaryEntry.objects.exists() and not MemoryDocument.objects.exists()


def test_users_with_memory_off_are_not_dreamed(user, other_user):
    MemorySettings.objects.create(user=user, enabled=False)
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    candidate_said(user=other_user, quote="I have a cat named Tom", statement="User has a cat named Tom",
                   importance=0.8, said_at=NOW - timedelta(hours=3))

    run = deep_sleep_all(now=NOW, dreamer=ScriptedDreamer(), embedder=EMBEDDER)
    single = run_night(user)

    assert run.users_processed == 1 and run.promoted == 1
    assert single.users_processed == 0
    assert not Memory.objects.filter(user=user).exists()
    assert Memory.objects.filter(user=other_user).count() == 1


def test_candidates_said_after_the_simulated_night_wait(user):
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.8, said_at=NOW + timedelta(hours=1))
    run_night(user)
    candidate.refresh_from_db()
    assert candidate.status == Candidate.Status.PENDING and candidate.score is None
    assert not Memory.objects.exists()


def test_a_second_night_with_nothing_new_changes_nothing(user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    run_night(user)
    before = list(Memory.objects.values_list("pk", "confidence", "recurrence", "updated_at"))

    again = run_night(user, now=NOW + timedelta(minutes=5))

    assert (again.promoted, again.reinforced, again.pending) == (0, 0, 0)
    assert list(Memory.objects.values_list("pk", "confidence", "recurrence", "updated_at")) == before
    assert DiaryEntry.objects.count() == 1
    assert timezone.is_aware(again.started_at)


class DownDreamer(ScriptedDreamer):
    def compare(self, *, statements, memories, ctx, said_at=None):
        from dreaming.protocol import ProviderUnavailable

        raise ProviderUnavailable("503 from the model")


def test_a_provider_outage_fails_the_run_and_leaves_everything_for_the_next_night(user):
    memory_with_embedding(user=user, statement="User lives in Shanghai")
    candidate = candidate_said(user=user, quote="I moved to Tokyo", statement="User moved to Tokyo", importance=0.9,
                               said_at=NOW - timedelta(hours=3))

    run = deep_sleep_all(now=NOW, dreamer=DownDreamer(), embedder=EMBEDDER)

    candidate.refresh_from_db()
    assert run.status == DreamRun.Status.FAILED and "provider unavailable" in run.error
    assert candidate.status == Candidate.Status.PENDING and candidate.score is None
    assert candidate.embedding is not None  # paid for before the compare failed: kept, not paid again
    assert list(Memory.objects.filter(user=user).values_list("statement", "status")) == [("User lives in Shanghai", "active")]


class GarbledDreamer(ScriptedDreamer):
    def compare(self, *, statements, memories, ctx, said_at=None):
        from dreaming.protocol import UnusableAnswer

        raise UnusableAnswer("not JSON")


def test_an_unusable_comparison_decides_nothing_blind(user):
    memory_with_embedding(user=user, statement="User lives in Shanghai")
    candidate = candidate_said(user=user, quote="I moved to Tokyo", statement="User moved to Tokyo", importance=0.9,
                               said_at=NOW - timedelta(hours=3))

    run = run_night(user, dreamer=GarbledDreamer())

    candidate.refresh_from_db()
    assert run.status == DreamRun.Status.OK and run.promoted == 0
    assert candidate.status == Candidate.Status.PENDING and candidate.score is None
    assert Memory.objects.filter(user=user).count() == 1


def test_compare_is_batched_so_one_prompt_stays_small(user):
    memory_with_embedding(user=user, statement="User lives in Shanghai")
    things = ("bikes guitars kayaks drones lamps clocks kites maps vases rugs pianos boats tents skis stamps coins "
              "dolls masks radios cameras violins chairs rings hats bells").split()
    assert len(things) == 25
    for n, thing in enumerate(things):
        candidate_said(user=user, quote=f"I collect {thing}", statement=f"User collects {thing}",
                       importance=0.8, said_at=NOW - timedelta(hours=3, minutes=n))
    dreamer = ScriptedDreamer()

    run = run_night(user, dreamer=dreamer)

    assert [len(statements) for statements, _ in dreamer.compared] == [20, 5]
    assert run.promoted == Memory.objects.filter(user=user).count() - 1


def test_the_compare_call_is_made_before_the_nights_transaction_and_asked_once(user):
    from django.db import connection

    shanghai_since = datetime(2025, 1, 5, tzinfo=dt_timezone.utc)
    memory_with_embedding(user=user, statement="User lives in Shanghai", category="fact", valid_from=shanghai_since,
                          first_seen=shanghai_since, last_seen=shanghai_since)
    candidate_said(user=user, quote="I just moved to Tokyo!", statement="User moved to Tokyo", importance=0.8,
                   said_at=NOW - timedelta(hours=4))
    savepoints_at_compare = []

    class Watching(ScriptedDreamer):
        def compare(self, **kwargs):
            # The test itself runs in one transaction; the night's would add a savepoint.
            savepoints_at_compare.append(len(connection.savepoint_ids))
            return super().compare(**kwargs)

    dreamer = Watching({"User moved to Tokyo": ("contradicts", "User lives in Shanghai")})
    run = run_night(user, dreamer=dreamer)

    assert savepoints_at_compare == [0] and len(dreamer.compared) == 1  # asked once, outside, and used
    assert run.superseded == 1 and Memory.objects.get(user=user, status="active").statement == "User moved to Tokyo"


def _statements(queries, start: str) -> int:
    return sum(1 for q in queries if q["sql"].lstrip().replace('"', "").startswith(start))


def test_a_batch_of_clusters_is_written_in_a_few_statements_not_one_per_candidate(user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    memory_with_embedding(user=user, statement="User lives in Shanghai")
    things = "bikes guitars kayaks drones lamps clocks kites maps vases rugs pianos boats".split()
    for n, thing in enumerate(things):
        candidate_said(user=user, quote=f"I collect {thing}", statement=f"User collects {thing}",
                       importance=0.8, said_at=NOW - timedelta(hours=3, minutes=n))

    with CaptureQueriesContext(connection) as captured:
        run = run_night(user)

    assert run.promoted == len(things) and MemorySource.objects.filter(memory__user=user).count() == len(things)
    assert Candidate.objects.filter(user=user, status=Candidate.Status.PROMOTED, memory__isnull=False).count() == len(things)
    assert _statements(captured, "INSERT INTO dreaming_memory ") == 1
    assert _statements(captured, "INSERT INTO dreaming_memorysource ") == 1
    assert _statements(captured, "UPDATE dreaming_candidate ") == 2  # their new embeddings, then their decisions
    # The nearest memories of all twelve clusters in one query, before the transaction and inside it.
    assert sum(1 for q in captured if "CROSS JOIN LATERAL" in q["sql"]) == 2


def test_a_plan_made_and_fulfilled_the_same_night_is_superseded_by_what_fulfilled_it(user):
    said = NOW - timedelta(hours=6)
    # A memory naming things first, so the scope's plans are read before the plan is made tonight.
    candidate_said(user=user, quote="I have a cat named Tom", statement="User has a cat named Tom", importance=0.8,
                   said_at=said)
    candidate_said(user=user, quote="I'm planning to adopt a dog", statement="User is planning to adopt a dog",
                   category="event", importance=0.8, said_at=said + timedelta(minutes=1))
    candidate_said(user=user, quote="I adopted a dog named Rex", statement="User adopted a dog named Rex",
                   category="event", importance=0.8, said_at=said + timedelta(hours=1))

    run = run_night(user)

    assert (run.promoted, run.superseded) == (3, 1), run.error
    plan = Memory.objects.get(user=user, statement="User is planning to adopt a dog")
    adopted = Memory.objects.get(user=user, statement="User adopted a dog named Rex")
    assert plan.status == Memory.Status.SUPERSEDED and plan.superseded_by == adopted
    assert adopted.status == Memory.Status.ACTIVE
    # The plan became the event: the memory that fulfilled it keeps the plan's evidence too.
    assert {s.quote for s in adopted.sources.all()} == {"I'm planning to adopt a dog", "I adopted a dog named Rex"}
