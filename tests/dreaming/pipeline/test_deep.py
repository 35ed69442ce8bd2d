"""Deep sleep on real Postgres: promotion / pending / drop, recurrence, contradiction, reinforcement."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.utils import timezone

from dreaming.pipeline.deep import deep_sleep_all, deep_sleep_user
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory, MemoryDocument, MemorySettings, MemorySource
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.tombstones import tombstone_add
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, MessageFactory, candidate_said
from tests.support.deep import ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)
EMBEDDER = LocalEmbedder(dimensions=512)


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
    assert dreamer.narrated[0].changed == [("User lives in Shanghai", "User moved to Tokyo")]


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
    assert dreamer.narrated[0].language == "en"


def test_a_chinese_night_is_narrated_in_chinese(user):
    candidate_said(user=user, quote="我养了一只狗叫米洛", statement="用户养了一只叫米洛的狗",
                   importance=0.8, said_at=NOW - timedelta(hours=3))
    dreamer = ScriptedDreamer()
    run_night(user, dreamer=dreamer)
    assert dreamer.narrated[0].language == "zh"
    assert dreamer.narrated[0].learned == ["用户养了一只叫米洛的狗"]


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
    def compare(self, *, statements, memories, ctx):
        from dreaming.protocol import ProviderUnavailable

        raise ProviderUnavailable("503 from the model")


def test_a_provider_outage_fails_the_run_and_leaves_everything_for_the_next_night(user):
    memory_with_embedding(user=user, statement="User lives in Shanghai")
    candidate = candidate_said(user=user, quote="I moved to Tokyo", statement="User moved to Tokyo", importance=0.9,
                               said_at=NOW - timedelta(hours=3))

    run = deep_sleep_all(now=NOW, dreamer=DownDreamer(), embedder=EMBEDDER)

    candidate.refresh_from_db()
    assert run.status == DreamRun.Status.FAILED and "provider unavailable" in run.error
    assert candidate.status == Candidate.Status.PENDING and candidate.score is None and candidate.embedding is None
    assert list(Memory.objects.filter(user=user).values_list("statement", "status")) == [("User lives in Shanghai", "active")]


class GarbledDreamer(ScriptedDreamer):
    def compare(self, *, statements, memories, ctx):
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


def test_a_night_writes_its_candidate_decisions_in_bulk_not_one_update_each(user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    said = NOW - timedelta(hours=6)
    pets = ["dog named Milo", "cat named Luna", "parrot named Kiwi", "hamster named Bean", "rabbit named Hops"]
    strong = [candidate_said(user=user, quote=f"I have a {pet}", statement=f"User has a {pet}", importance=0.8, said_at=said)
              for pet in pets]
    weak = [candidate_said(user=user, quote=f"it is {w}", statement=f"User is {w}", importance=0.1, user_initiated=False,
                           said_at=said) for w in ("ok", "fine", "so-so")]

    with CaptureQueriesContext(connection) as queries:
        run = run_night(user)

    assert run.status == DreamRun.Status.OK, run.error
    assert (run.promoted, run.dropped) == (5, 3)
    candidate_updates = [q["sql"] for q in queries.captured_queries
                         if q["sql"].lstrip().replace('"', "").startswith("UPDATE dreaming_candidate")]
    # Embeddings the candidates lacked: one embed call, one UPDATE; decisions of one compare batch: one UPDATE.
    assert run.embedding_calls == 1
    assert len(candidate_updates) == 2, candidate_updates
    assert 'SET "embedding"' in candidate_updates[0]
    source_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT') and 'FROM "dreaming_memorysource"' in q["sql"]]
    assert len(source_reads) <= 1  # a memory made tonight has no sources to read back (MEMORY.md may read them once)
    source_writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "dreaming_memorysource"')]
    assert len(source_writes) == 1  # the five new memories' sources in one insert
    for candidate in strong:
        candidate.refresh_from_db()
        assert candidate.status == Candidate.Status.PROMOTED and candidate.decided_at == NOW
        assert candidate.memory.statement == candidate.statement and candidate.score >= 0.5
        assert [s.quote for s in candidate.memory.sources.all()] == [candidate.quote]
    for candidate in weak:
        candidate.refresh_from_db()
        assert candidate.status == Candidate.Status.DISMISSED and candidate.memory is None and candidate.score < 0.3
        assert candidate.decided_at == NOW and candidate.reason.startswith("Dismissed")
