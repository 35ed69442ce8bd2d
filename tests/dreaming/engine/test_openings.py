"""A statement whose opening leans on what it does not say is no memory (dreaming/engine/openings.py):
the rewrite of "I" / "my" left a reply's pointer at the front."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine.openings import opening_reason
from dreaming.memory.scoring import ScoreInput, score_compute, score_decision, vague_reason

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=dt_timezone.utc)


@pytest.mark.parametrize("statement, word", [
    ("They're User's biggest motivation and support", "They"),
    ("It commemorates User's journey", "It"),
    ("It's User's own story", "It"),
    ("This is User's go-to place for writing inspiration", "This"),
    ("He's filling User's life with so much joy", "He"),
    ("That picture on User's desk reminds them of home", "That picture"),
    ("The necklace is super special to User", "The necklace"),
    ("The picture reminds User of a road trip", "The picture"),
    ("Here's a picture of him that User cherishes", "Here's"),
    ("Here is a pic of User's fam at the beach", "Here is"),
    ("John, User gets it", "John"),
    ("Gina, thanks for having User's back", "Gina"),
    ("Glad User could help", "Glad"),
    ("Wish User could try it, but they can't", "Wish"),
    ("Gotta focus on success and why User started", "Gotta"),
    ("Plus User's full support", "Plus"),
])
def test_an_opening_that_points_at_what_was_said_before_is_vague(statement, word):
    reason = opening_reason(statement)
    assert reason and word in reason
    assert vague_reason(statement) == reason


@pytest.mark.parametrize("statement", [
    "Clay brings User so much joy",
    "Dancing helps User de-stress",
    "Coconut milk ice cream is at the top of User's list",
    "Playing video games or watching movies helps User unwind",
    "The Beatles are User's favorite band",
    "Recently, User moved to Tokyo",
    "Yesterday, User adopted a dog",
    "These days User works from home",
    "This week User started a pottery class",
    "It's User's birthday on 3 May",
    "It's been two years since User moved to Lisbon",
    "Can't wait 'til User's studio starts welcoming dancers",
    "User loves hiking",
    "最近用户开始学习射击",
])
def test_a_named_thing_a_time_or_the_user_first_still_stands(statement):
    assert opening_reason(statement) is None


def test_a_reply_kept_for_its_opening_is_never_promoted_however_often_said():
    item = ScoreInput(statement="They're User's biggest motivation and support", category="relation", importance=0.9,
                      user_initiated=True, distinct_sessions=3, last_said_at=NOW - timedelta(hours=2))
    score, breakdown = score_compute(item=item, now=NOW)
    assert score_decision(score) == "dismiss"
    assert "They" in breakdown["vague"]


@pytest.mark.parametrize("statement", [
    "That is cool, User would have a lot of pets if they had the time",
    "It is a hard world, in their childhood we were poor, now User volunteers",
    "They are five, eight and ten and User's amazing wife doesn't reveal her age",
    "He keeps sending random guys to the gas station where User works",
])
def test_a_later_clause_of_the_users_own_keeps_the_statement(statement):
    assert opening_reason(statement) is None


def test_a_later_clause_that_does_not_stand_leaves_the_statement_vague():
    assert vague_reason("That's cool, User likes it")
    assert vague_reason("That is cool, User would have a lot of pets if they had the time") is None


@pytest.mark.parametrize("statement, word", [
    ("It is so User's favorite", "It"),  # "so" after "is" says how much; it opens no clause of the user's
    ("We didn't have much winter since growing up User was in school in Spain", "We"),
    ("We can take them to User's kindergarten class for show and tell", "We"),
    ("His name is Max and he loves the beach", "His"),
])
def test_a_group_or_a_pointer_left_at_the_front_is_vague(statement, word):
    assert f"'{word}'" in (vague_reason(statement) or "")


def test_so_after_a_comma_still_opens_the_users_own_clause():
    assert opening_reason("That was cheap, so User bought two of them for their sisters") is None
