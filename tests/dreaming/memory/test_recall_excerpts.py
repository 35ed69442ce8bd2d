"""Recall's excerpts: the user's own past turns, found by full-text search, with forgetting respected."""
import io
import json
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.core.management import call_command
from django.utils import timezone

from chat.models import Message
from chat.services import NewMessage, session_import
from dreaming.memory.excerpts import excerpt_candidates, excerpts_index, search_query, turn_digests
from dreaming.memory.recall import recall
from dreaming.memory.services import candidate_dismiss, conversation_delete, memory_forget, memory_settings_set
from dreaming.models import Candidate, Tombstone
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.protocol import RECALL_TOOL
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, PersonaFactory
from tests.support.light import FakeDreamer, FakeEmbedder

pytestmark = pytest.mark.django_db
EMBEDDER = LocalEmbedder(dimensions=512)
MAY_12 = datetime(2023, 5, 12, 14, 0, tzinfo=dt_timezone.utc)


def kept_session(user, *turns, persona=None, at=MAY_12, external_id=None, index=True):
    """A session light sleep dreamed and kept, its user turns indexed as light sleep does."""
    session = ChatSessionFactory(
        user=user, persona=persona, started_at=at, last_active_at=at, dreamed_at=timezone.now(),
        processed_seq=len(turns), triage_kind="normal", **({"external_id": external_id} if external_id else {}),
    )
    messages = [
        Message.objects.create(session=session, seq=i, role=role, content=content, created_at=at + timedelta(minutes=i),
                               external_id=f"{session.external_id}-m{i}")
        for i, (role, content) in enumerate(turns, 1)
    ]
    if index:
        excerpts_index(user_id=user.pk, messages=messages)
    return session, messages


def excerpts(results):
    return [r for r in results if r.kind == "excerpt"]


def ask(user, query, **kwargs):
    return recall(user=user, query=query, embedder=EMBEDDER, **kwargs)


def test_an_excerpt_says_when_the_user_said_it_and_where(user):
    session, (turn,) = kept_session(user, ("user", "My sister Beatrice moved to Vancouver for a nursing job."))

    (result,) = excerpts(ask(user, "Where does Beatrice live now?"))

    assert result.statement == 'On 12 May 2023 you said: "My sister Beatrice moved to Vancouver for a nursing job."'
    assert result.id == turn.pk and result.category == "excerpt"
    assert result.sources == [{
        "session_external_id": session.external_id, "message_external_id": turn.external_id,
        "quote": "My sister Beatrice moved to Vancouver for a nursing job.", "said_at": turn.created_at.isoformat(),
    }]


def test_a_short_answer_comes_with_the_end_of_the_question_it_answered(user):
    kept_session(user, ("assistant", "Nice trip! Which city did you like best?"), ("user", "Definitely Kyoto."))

    (result,) = excerpts(ask(user, "Kyoto"))

    assert result.statement == 'On 12 May 2023, replying to "Which city did you like best?", you said: "Definitely Kyoto."'


def test_a_short_turn_after_the_users_own_turn_is_shown_without_an_older_question(user):
    kept_session(user, ("assistant", "Which city did you like best?"), ("user", "We went to Japan in spring."),
                 ("user", "Definitely Kyoto."))

    (result,) = excerpts(ask(user, "Kyoto"))

    assert result.statement == 'On 12 May 2023 you said: "Definitely Kyoto."'


def test_a_long_turn_is_cut_to_the_sentences_that_match(user):
    filler = " ".join(f"Sentence number {i} is about nothing in particular at all." for i in range(12))
    kept_session(user, ("user", f"{filler} My daughter Inès starts violin lessons in September. {filler}"))

    (result,) = excerpts(ask(user, "When do Inès's violin lessons start?"))

    assert "My daughter Inès starts violin lessons in September." in result.statement
    assert len(result.statement.split()) <= 60


def test_assistant_turns_and_skipped_sessions_are_never_excerpts(user):
    kept_session(user, ("assistant", "The capybara is the largest rodent."))
    roleplay, _ = kept_session(user, ("user", "*the knight draws his capybara sword*"))
    roleplay.skipped, roleplay.triage_kind = True, "roleplay"
    roleplay.save()

    assert excerpts(ask(user, "capybara")) == []


def test_light_sleep_indexes_only_the_user_turns_of_sessions_it_keeps(user):
    now = timezone.now()
    normal = ChatSessionFactory(user=user, started_at=now - timedelta(hours=3), last_active_at=now - timedelta(hours=2))
    said = Message.objects.create(session=normal, seq=1, role="user", content="I started learning the oboe.", created_at=now - timedelta(hours=3))
    answer = Message.objects.create(session=normal, seq=2, role="assistant", content="The oboe is lovely.", created_at=now - timedelta(hours=3))
    health = Message.objects.create(session=normal, seq=3, role="user", content="I have diabetes and take insulin every day.", created_at=now - timedelta(hours=3))

    light_sleep_sweep(dreamer=FakeDreamer(), embedder=FakeEmbedder())

    indexed = set(Message.objects.filter(search__isnull=False).values_list("pk", flat=True))
    assert indexed == {said.pk}
    assert answer.pk not in indexed and health.pk not in indexed
    assert excerpts(ask(user, "oboe"))[0].id == said.pk


def test_light_sleep_leaves_a_skipped_session_unindexed(user):
    now = timezone.now()
    session = ChatSessionFactory(user=user, started_at=now - timedelta(hours=3), last_active_at=now - timedelta(hours=2))
    Message.objects.create(session=session, seq=1, role="user", content="Translate: the oboe is lovely.", created_at=now - timedelta(hours=3))

    from dreaming.protocol import TriageResult
    light_sleep_sweep(dreamer=FakeDreamer(triage=TriageResult(kind="translation", reason="fake")), embedder=FakeEmbedder())

    assert not Message.objects.filter(search__isnull=False).exists()
    assert excerpts(ask(user, "oboe")) == []


# --- Forgetting reaches excerpts ---------------------------------------------------------------

WORDS = "I secretly applied for a job at the Lisbon aquarium."


def _forgotten_memory(user):
    session, (turn,) = kept_session(user, ("user", WORDS))
    memory = MemoryFactory(user=user, statement="User applied for a job at the Lisbon aquarium",
                           embedding=EMBEDDER.embed(["User applied for a job at the Lisbon aquarium"])[0])
    MemorySourceFactory(memory=memory, message=turn, quote="applied for a job at the Lisbon aquarium")
    assert any(r.kind == "excerpt" or r.id == memory.pk for r in ask(user, "Lisbon aquarium job"))
    receipt = memory_forget(memory=memory, by=user)
    assert receipt.turns_excluded == 1
    return session


def test_a_forgotten_memorys_words_never_come_back_as_an_excerpt(user):
    _forgotten_memory(user)

    assert ask(user, "Lisbon aquarium job") == []
    assert ask(user, WORDS) == []


def test_nor_in_other_casing_and_punctuation_in_another_conversation(user):
    _forgotten_memory(user)
    kept_session(user, ("user", "i SECRETLY applied for a job at the lisbon aquarium!!"), at=MAY_12 + timedelta(days=30))
    kept_session(user, ("user", "Hello there. I secretly applied for a job at the Lisbon aquarium."), at=MAY_12 + timedelta(days=31))
    kept, _ = kept_session(user, ("user", "The Lisbon aquarium has a new octopus."), at=MAY_12 + timedelta(days=32))

    found = excerpts(ask(user, "Lisbon aquarium"))

    assert [r.sources[0]["session_external_id"] for r in found] == [kept.external_id]


def test_nor_when_the_conversation_is_imported_again(user):
    session = _forgotten_memory(user)
    result = session_import(user=user, external_id=f"{session.external_id}-again",
                            messages=[NewMessage("user", WORDS, MAY_12)], now=timezone.now())
    again = result.session
    again.dreamed_at, again.processed_seq = timezone.now(), 1
    again.save()
    excerpts_index(user_id=user.pk, messages=list(again.messages.all()))

    assert ask(user, "Lisbon aquarium job") == []


def test_a_deleted_conversations_turns_are_gone(user):
    session, _ = kept_session(user, ("user", "We named the sailboat Perpetua."))
    assert excerpts(ask(user, "sailboat Perpetua"))

    conversation_delete(session=session, by=user)

    assert ask(user, "sailboat Perpetua") == []


def test_a_dismissed_candidates_turn_is_not_an_excerpt_even_imported_again(user):
    session, (turn,) = kept_session(user, ("user", "My ex still has my grandmother's brooch."))
    candidate = Candidate.objects.create(user=user, session=session, message=turn, quote="My ex still has my grandmother's brooch",
                                         statement="User's ex has the user's grandmother's brooch", said_at=turn.created_at, verified=True)

    candidate_dismiss(candidate=candidate, by=user)
    Candidate.objects.filter(pk=candidate.pk).delete()  # the turn's hash alone keeps it out
    kept_session(user, ("user", "my ex still has my grandmother's brooch"), at=MAY_12 + timedelta(days=3))

    assert excerpts(ask(user, "grandmother brooch")) == []


def test_a_sensitive_turn_indexed_before_is_not_shown_and_secrets_are_masked(user):
    kept_session(user, ("user", "I was diagnosed with depression after the marathon."),
                 ("assistant", "Your token sk-abcdefghijklmnopqrstuvwx is visible. Which marathon?"),
                 ("user", "Berlin marathon."))

    found = excerpts(ask(user, "marathon"))

    assert [r.sources[0]["quote"] for r in found] == ["Berlin marathon."]
    assert "depression" not in found[0].statement and "sk-abc" not in found[0].statement


def test_no_excerpts_when_memory_is_off(user):
    kept_session(user, ("user", "I play the bandoneon on Sundays."))
    memory_settings_set(user=user, enabled=False)

    assert ask(user, "bandoneon") == []


def test_another_users_turns_are_never_excerpts(user, other_user):
    kept_session(other_user, ("user", "I play the bandoneon on Sundays."))

    assert ask(user, "bandoneon") == []


def test_a_scoped_recall_sees_the_profile_and_its_persona_not_another_persona(user):
    luna, max_ = PersonaFactory(slug="luna"), PersonaFactory(slug="max")
    general, _ = kept_session(user, ("user", "I keep bees on the roof."))
    with_luna, _ = kept_session(user, ("user", "The bees swarmed on Tuesday."), persona=luna)
    kept_session(user, ("user", "I am allergic to bees, I told Max."), persona=max_)

    found = excerpts(ask(user, "bees", persona=luna))

    assert {r.sources[0]["session_external_id"] for r in found} == {general.external_id, with_luna.external_id}


def test_chinese_excerpts_are_found_by_chinese_queries(user):
    _, (turn, _) = kept_session(user, ("user", "我女儿下个月在杭州参加钢琴比赛。"), ("user", "今天天气不错。"))

    found = excerpts(ask(user, "女儿的钢琴比赛在哪里"))

    assert [r.id for r in found] == [turn.pk]
    assert found[0].statement == "2023年5月12日你说：“我女儿下个月在杭州参加钢琴比赛。”"
    assert "zh" in search_query("钢琴比赛") and search_query("什么") is None


# --- Ranking together ------------------------------------------------------------------------------

def test_a_memory_and_the_excerpt_it_came_from_are_not_both_returned(user):
    _, (turn,) = kept_session(user, ("user", "Our cat Pistache is fourteen years old."))
    memory = MemoryFactory(user=user, statement="User's cat Pistache is fourteen",
                           embedding=EMBEDDER.embed(["User's cat Pistache is fourteen"])[0])
    MemorySourceFactory(memory=memory, message=turn, quote="Our cat Pistache is fourteen years old")

    results = ask(user, "How old is Pistache?")

    assert len(results) == 1 and (results[0].kind, results[0].id) in {("memory", memory.pk), ("excerpt", turn.pk)}


def test_k_counts_both_kinds(user):
    for i in range(6):
        kept_session(user, ("user", f"Tennis match number {i} against Oskar went well."), at=MAY_12 + timedelta(days=i))
        MemoryFactory(user=user, statement=f"User won tennis match {i}", embedding=EMBEDDER.embed([f"User won tennis match {i}"])[0])

    results = ask(user, "tennis", k=10)

    assert len(results) == 10 and {r.kind for r in results} == {"memory", "excerpt"}
    assert len(ask(user, "tennis", k=3)) == 3


def test_the_command_and_the_api_say_the_kind(user, client):
    kept_session(user, ("user", "I restore vintage Vespas in my garage."))
    out = __import__("io").StringIO()
    call_command("recall", user.username, "Vespa", "--json", stdout=out)
    (result,) = json.loads(out.getvalue())["results"]
    assert result["kind"] == "excerpt" and result["statement"].startswith("On 12 May 2023 you said:")
    assert result["sources"][0]["quote"] == "I restore vintage Vespas in my garage."
    assert "excerpt" in RECALL_TOOL["function"]["description"]


def test_recall_with_excerpts_is_still_a_few_queries(user, django_assert_max_num_queries):
    for i in range(20):
        kept_session(user, ("user", f"I visited the city of Ghent, trip number {i}."), at=MAY_12 + timedelta(days=i))
    # memory on + MEMORY.md ids, shortlist, full-text search, tombstones of the found turns (no memories: no sources query)
    with django_assert_max_num_queries(4):
        results = ask(user, "Ghent", k=10)
    assert len(results) == 10 and all(r.kind == "excerpt" for r in results)


def test_the_api_returns_excerpts_beside_memories(client, settings):
    from tests.factories import api_key_create, client_user

    settings.EMBEDDING_BACKEND = "local"
    key, secret = api_key_create(name="recall-test")
    user = client_user(key.client, "carl")  # a user of the key's client: the only users it can reach
    session, (turn,) = kept_session(user, ("user", "I restore vintage Vespas in my garage."))
    MemoryFactory(user=user, statement="User owns a Vespa", embedding=EMBEDDER.embed(["User owns a Vespa"])[0])

    response = client.get("/api/v1/users/carl/recall", {"q": "Vespa", "k": 5},
                          HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["kind"] for r in results] == ["excerpt", "memory"]
    assert results[0]["statement"] == 'On 12 May 2023 you said: "I restore vintage Vespas in my garage."'
    assert results[0]["sources"][0]["message_external_id"] == turn.external_id
    assert results[0]["sources"][0]["session_external_id"] == session.external_id


def test_a_query_of_stop_words_finds_no_excerpt(user):
    kept_session(user, ("user", "I restore vintage Vespas in my garage."))

    assert excerpts(ask(user, "will now")) == []  # Postgres stop words that are not ours


def test_a_candidate_deep_sleep_dismissed_leaves_its_turn_an_excerpt(user):
    session, (turn,) = kept_session(user, ("user", "I ran the Porto half marathon in 1:52."))
    Candidate.objects.create(user=user, session=session, message=turn, quote="I ran the Porto half marathon in 1:52",
                             statement="User ran the Porto half marathon", said_at=turn.created_at, verified=True,
                             status=Candidate.Status.DISMISSED, reason="Dismissed: score 0.31 is below the pending threshold.")

    assert [r.id for r in excerpts(ask(user, "Porto half marathon time"))] == [turn.pk]


def test_the_same_words_said_in_several_sessions_are_one_excerpt(user):
    for day in range(3):
        kept_session(user, ("user", "I love chess on weekends."), at=MAY_12 + timedelta(days=day))

    assert len(excerpts(ask(user, "chess on weekends"))) == 1


def test_an_answer_is_found_by_the_words_of_the_question_it_answered(user):
    _, (_, answer) = kept_session(user, ("assistant", "How often do you and the kids go climbing together?"),
                                  ("user", "Three times a week, it keeps us on track."))

    (result,) = excerpts(ask(user, "How often does the family go climbing?"))

    assert result.id == answer.pk
    assert result.sources[0]["quote"] == "Three times a week, it keeps us on track."


def test_a_sensitive_clause_is_neither_found_nor_shown_the_rest_of_the_turn_is(user):
    _, (turn,) = kept_session(user, ("user", "I ran the Berlin marathon in May, and I was diagnosed with depression last year."))

    assert ask(user, "diagnosed depression") == []
    (result,) = excerpts(ask(user, "Berlin marathon"))
    assert result.id == turn.pk
    assert "depression" not in result.statement and "diagnosed" not in result.statement
    assert result.sources[0]["quote"] == "I ran the Berlin marathon in May."


def test_the_words_of_a_sensitive_question_are_not_searchable_in_the_answer(user):
    kept_session(user, ("assistant", "How is your depression since the Berlin trip?"), ("user", "Better, thanks."))

    assert ask(user, "depression") == []


def test_a_question_of_common_words_searches_by_its_rarest_word(user, monkeypatch):
    monkeypatch.setattr("dreaming.memory.excerpts.SEARCH_POOL", 3)
    for i in range(6):
        kept_session(user, ("user", f"Work was busy this week, meeting number {i}."), at=MAY_12 + timedelta(days=i))
    _, (rare,) = kept_session(user, ("user", "Work this week: I finally fixed the greenhouse heater."))

    found = excerpts(ask(user, "What happened at work this week with the greenhouse?"))

    assert found[0].id == rare.pk


def test_excerpts_reindex_makes_turns_indexed_before_findable_by_the_question_they_answered(user):
    from django.db import connection

    _, (_, answer) = kept_session(user, ("assistant", "Which instrument did your grandfather play?"),
                                  ("user", "The bandoneon, every Sunday."))
    with connection.cursor() as cursor:  # as the first version indexed it: the turn's own words only
        cursor.execute("UPDATE chat_message SET search = chat_owned_search(%s, to_tsvector('english', %s)) WHERE id = %s",
                       [user.pk, f"The bandoneon, every Sunday. mcowner{user.pk}", answer.pk])
    assert excerpts(ask(user, "grandfather instrument")) == []

    out = io.StringIO()
    call_command("excerpts_reindex", stdout=out)

    assert out.getvalue().strip() == "re-indexed 1 turns"
    assert [r.id for r in excerpts(ask(user, "grandfather instrument"))] == [answer.pk]


def test_an_indexed_turn_carries_its_forgetting_digests(user):
    _, (turn,) = kept_session(user, ("user", WORDS))

    turn.refresh_from_db()
    assert set(turn.forget_digests) == turn_digests(WORDS)


def test_a_turn_indexed_before_its_digests_is_still_checked_against_the_tombstones(user):
    _forgotten_memory(user)
    old, _ = kept_session(user, ("user", "i SECRETLY applied for a job at the lisbon aquarium!!"), at=MAY_12 + timedelta(days=30))
    Message.objects.filter(session=old).update(forget_digests=None)  # as indexed before migration chat 0008
    kept, _ = kept_session(user, ("user", "The Lisbon aquarium has a new octopus."), at=MAY_12 + timedelta(days=32))

    found = excerpts(ask(user, "Lisbon aquarium"))

    assert [r.sources[0]["session_external_id"] for r in found] == [kept.external_id]


def test_a_lifted_tombstone_lets_the_words_come_back(user):
    _forgotten_memory(user)
    assert ask(user, "Lisbon aquarium job") == []

    Tombstone.objects.filter(user=user).delete()

    assert [r.kind for r in ask(user, "Lisbon aquarium job")] == ["excerpt"]


def test_excerpts_reindex_gives_turns_indexed_before_their_digests(user):
    _, (turn,) = kept_session(user, ("user", WORDS))
    Message.objects.filter(pk=turn.pk).update(forget_digests=None)

    call_command("excerpts_reindex", stdout=io.StringIO())

    turn.refresh_from_db()
    assert set(turn.forget_digests) == turn_digests(WORDS)


def test_the_replied_to_turns_read_from_loaded_messages_are_those_the_index_query_reads(user):
    """Light sleep passes the replied-to turns from the messages it loaded; they must be the query's."""
    from django.db import connection

    from dreaming.memory.excerpts import _REPLIED_TO_SQL, replied_to_in

    _, messages = kept_session(
        user, ("user", "Hi there."), ("assistant", "Hello! Any pets?"), ("user", "Yes, two cats."),
        ("user", "And a dog."), ("system", "You are Luna."), ("user", "Named Rex."),
        ("assistant", "Nice!"), ("assistant", "What else?"), ("user", "I paint."), index=False,
    )
    user_turns = {m.pk for m in messages if m.role == "user"}
    with connection.cursor() as cursor:
        cursor.execute(_REPLIED_TO_SQL, {"ids": sorted(user_turns)})
        by_query = dict(cursor.fetchall())

    by_messages = replied_to_in(messages=messages, ids=user_turns)

    assert by_messages == by_query
    assert sorted(by_messages.values()) == ["Hello! Any pets?", "What else?"]
    assert replied_to_in(messages=messages, ids=set()) == {}


def test_the_remembered_showable_words_are_the_filter_s_and_long_turns_are_not_kept():
    from dreaming.memory.excerpts import _found_words, _found_words_cached, excerpt_words

    turn = "I have been treated for depression since May. My key is sk-abcdefghijklmnopqrstuvwx, and I run marathons."
    long_turn = turn + " " + "We walked along the river and talked about the garden. " * 40
    _found_words_cached.cache_clear()
    assert _found_words(turn) == excerpt_words(turn) == _found_words(turn)  # the second one remembered
    assert "depression" not in _found_words(turn) and "sk-abc" not in _found_words(turn) and "marathons" in _found_words(turn)
    assert _found_words(long_turn) == excerpt_words(long_turn)
    info = _found_words_cached.cache_info()
    assert (info.hits, info.misses, info.currsize) == (4, 1, 1)  # the long turn is filtered each time, never held


def test_the_limit_counts_only_turns_that_pass_the_scope_and_forgetting_even_when_better_ranked_ones_fail(user):
    """The search ranks its pool, then walks it best first through the rules: the best-ranked turns
    failing them do not take the places of the limit."""
    max_ = PersonaFactory(slug="max")
    kept_session(user, ("user", "Quokka island."), persona=max_)
    session, (dismissed,) = kept_session(user, ("user", "Quokka island!"))
    candidate = Candidate.objects.create(user=user, session=session, message=dismissed, quote="Quokka island",
                                         statement="User mentioned Quokka island", said_at=dismissed.created_at, verified=True)
    candidate_dismiss(candidate=candidate, by=user)
    unprocessed, _ = kept_session(user, ("user", "Quokka island again."))
    unprocessed.processed_seq = 0
    unprocessed.save()
    wanted, _ = kept_session(user, ("user", "We took the ferry to see a quokka on the island last spring with my cousins."))

    found = excerpt_candidates(user_id=user.pk, persona_id=None, query="quokka island", limit=1)

    assert [e.session_external_id for e in found] == [wanted.external_id]
