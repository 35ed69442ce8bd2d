"""The rules behind the quality fixes, one by one: vagueness, stability, subjects in compare, tidy statements."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.providers.local import LocalDreamer
from dreaming.engine.resolve import tidy_en
from dreaming.protocol import CallContext, MemoryRef, Turn
from dreaming.memory.scoring import ScoreInput, score_compute, score_decision, stability, vague_reason

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)
CTX = CallContext(phase="deep")


@pytest.mark.parametrize("statement", [
    "User misses her", "User is new here", "User loves it", "User works there", "User went there last year",
    "User practices for twenty minutes every evening", "User is going with their friend Yuki in early April",
    "用户很期待", "用户很想她",
])
def test_a_statement_that_leans_on_something_unsaid_is_vague(statement):
    assert vague_reason(statement)


@pytest.mark.parametrize("statement", [
    "User misses their sister Lena", "User loves Studio Ghibli films, they always calm them down",
    "User practices the ukulele every evening", "User is going to Kyoto with Yuki", "User plays with their dog",
    "User has a corgi named Mochi", "用户爱猫", "用户打算带姐姐Lena去外滩",
])
def test_a_self_contained_statement_is_not_vague(statement):
    assert vague_reason(statement) is None


def test_a_vague_statement_is_dismissed_even_when_it_recurs():
    item = ScoreInput(statement="User misses her", category="emotion", importance=0.9, user_initiated=True,
                      distinct_sessions=3, last_said_at=NOW - timedelta(hours=2))
    score, breakdown = score_compute(item=item, now=NOW)
    assert score_decision(score) == "dismiss"
    assert "her" in breakdown["vague"] and breakdown["parts"]["specificity"] == 0.0


def test_stability_tells_lasting_facts_from_the_moment():
    assert stability(statement="User loves cooking on weekends", category="preference") == 1.0
    assert stability(statement="User lives in Tokyo", category="fact") == 1.0
    assert stability(statement="用户每天早上都喝燕麦拿铁", category="fact") == 1.0
    assert stability(statement="User made mapo tofu yesterday", category="event") == 0.25
    assert stability(statement="User can't stop smiling", category="fact") == 0.0
    assert stability(statement="User is still unpacking boxes", category="fact") == 0.0
    assert stability(statement="用户今天有点累", category="emotion") == 0.0
    assert stability(statement="User went to a pottery class yesterday", category="fact") == 0.25


def test_a_volunteered_preference_is_promoted_and_a_volunteered_moment_waits():
    said = NOW - timedelta(hours=5)
    preference = ScoreInput(statement="User loves cooking on weekends", category="preference", importance=0.5,
                            user_initiated=True, distinct_sessions=1, last_said_at=said)
    moment = ScoreInput(statement="User made mapo tofu yesterday", category="event", importance=0.45,
                        user_initiated=True, distinct_sessions=1, last_said_at=said)
    assert score_decision(score_compute(item=preference, now=NOW)[0]) == "promote"
    assert score_decision(score_compute(item=moment, now=NOW)[0]) == "pending"


def _compare(statements, memories):
    return LocalDreamer().compare(statements=statements, memories=memories, ctx=CTX)


def test_a_move_by_the_user_does_not_contradict_where_a_relative_lives():
    memories = [MemoryRef(id=1, statement="User's sister Lena lives in Berlin, User and Lena video call every Sunday",
                          category="relation"),
                MemoryRef(id=2, statement="User lives in Shanghai", category="fact")]
    (result,) = _compare(["User moved to Tokyo last week"], memories)
    assert (result.relation, result.memory_id) == ("contradicts", 2)


def test_the_same_words_about_another_person_do_not_reinforce():
    memories = [MemoryRef(id=1, statement="User's sister lives in Berlin", category="relation")]
    (result,) = _compare(["User lives in Berlin"], memories)
    assert result.relation == "new" and result.memory_id is None
    (same,) = _compare(["User's sister lives in Berlin, Germany"], memories)
    assert (same.relation, same.memory_id) == ("reinforces", 1)


def test_a_relatives_move_contradicts_only_that_relative():
    memories = [MemoryRef(id=1, statement="User lives in Berlin", category="fact"),
                MemoryRef(id=2, statement="User's sister Lena lives in Berlin", category="relation"),
                MemoryRef(id=3, statement="User's brother lives in Rome", category="relation")]
    (sister,) = _compare(["Lena moved to Paris"], memories)
    (brother,) = _compare(["User's brother moved to Milan"], memories)
    assert (sister.relation, sister.memory_id) == ("contradicts", 2)
    assert (brother.relation, brother.memory_id) == ("contradicts", 3)


def test_a_plan_to_move_and_a_second_pet_contradict_nothing():
    memories = [MemoryRef(id=1, statement="User lives in Shanghai", category="fact"),
                MemoryRef(id=2, statement="User has a corgi named Mochi", category="fact")]
    results = _compare(["User is moving to Tokyo next month", "User has a cat named Luna"], memories)
    assert [r.relation for r in results] == ["new", "new"]


def test_tidy_replaces_we_with_the_people_and_lowers_a_mid_sentence_article():
    assert tidy_en("User's sister Lena lives in Berlin, we video call every Sunday") == \
        "User's sister Lena lives in Berlin, User and Lena video call every Sunday"
    assert tidy_en("User lives in Ohio, we have a farm") == "User lives in Ohio"
    assert tidy_en("User loves The bathhouse and No-Face") == "User loves the bathhouse and No-Face"
    assert tidy_en("User loves The Beatles") == "User loves The Beatles"
    assert tidy_en("User also started learning the ukulele") == "User started learning the ukulele"


def test_extraction_reads_a_pronoun_with_the_relative_named_in_the_turn_before():
    turns = [Turn(seq=1, role="user", content="My sister Lena lives in Berlin."),
             Turn(seq=2, role="assistant", content="What does she do?"),
             Turn(seq=3, role="user", content="She is a nurse. I miss her a lot.")]
    statements = [c.statement for c in LocalDreamer().extract(turns=turns, ctx=CTX)]
    assert "User misses their sister Lena" in statements


def test_two_women_named_lately_leave_her_unresolved():
    turns = [Turn(seq=1, role="user", content="My sister Lena and my mom Ana live in Berlin."),
             Turn(seq=2, role="assistant", content="Nice."),
             Turn(seq=3, role="user", content="I miss her a lot.")]
    statements = [c.statement for c in LocalDreamer().extract(turns=turns, ctx=CTX)]
    assert not any("Lena" in s or "Ana" in s for s in statements if s.startswith("User misses"))


def test_a_dropped_i_later_in_a_turn_is_still_the_user_speaking():
    turns = [Turn(seq=1, role="user", content="Hey Gina, hope you're doing great! Still working on my biz. "
                                              "Took a short trip last week to Rome to clear my mind a little.")]
    statements = [c.statement for c in LocalDreamer().extract(turns=turns, ctx=CTX)]
    assert "User is still working on their biz" in statements
    assert "User took a short trip last week to Rome to clear their mind a little" in statements
    assert not any("Gina" in s for s in statements)
