"""An outing the user is back from, of a kind one has regularly, is remembered as the habit (go_activities.outing_habit):
"Just got back from my salsa dance lessons" → "User takes salsa dance lessons", not the news of the day."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.go_activities import outing_habit
from dreaming.engine.quotes import statement_unsupported
from dreaming.protocol import Turn


def _statements(said: str) -> list[str]:
    return [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=said)])]


@pytest.mark.parametrize("said,habit", [
    ("I just got back from my salsa dance lessons", "User takes salsa dance lessons"),
    ("I just got home from dance lessons", "User takes dance lessons"),
    ("Just got back from my economics class", "User takes an economics class"),
    ("Just got back from a motorcycle ride", "User rides a motorcycle"),
    ("I just got in from a run", "User runs"),
    ("Just came back from my weekly workout", "User works out"),
    ("I just got back from my morning walk", "User goes for morning walks"),
    ("I just got back from a walk with my dog", "User goes for walks with their dog"),
])
def test_an_outing_the_user_is_back_from_is_remembered_as_the_habit(said, habit):
    assert outing_habit(said) == habit
    assert statement_unsupported(statement=habit, quote=said) is None  # the truth guard lets the habit through


@pytest.mark.parametrize("said", [
    "I just got back from the store",          # an errand, not a habit
    "I just got back from my class",           # a class that names nothing
    "I just got back from my last class",      # over
    "I just got back from a ride with my dad",  # a ride on what?
])
def test_an_errand_or_an_outing_that_names_nothing_is_no_habit(said):
    assert outing_habit(said) is None


def test_the_turn_keeps_the_habit_not_the_news():
    statements = _statements("Hey there. Just got back from my economics class. How are ya")
    assert "User takes an economics class" in statements
    assert not any("got back" in s for s in statements)


def test_the_truth_guard_still_wants_the_outing_for_the_habit():
    assert statement_unsupported(statement="User takes salsa lessons", quote="I like salsa lessons")
