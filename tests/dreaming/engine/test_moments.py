"""A mood of the moment or the day's plan beside something lasting from the same turn waits, pending
(dreaming/engine/moments.py); alone in its turn it stays as it is. The sentences are invented."""
import pytest

from dreaming.engine.moments import MOMENT_IMPORTANCE, is_moment
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _candidates(text: str) -> dict[str, float]:
    turns = [Turn(seq=0, role="assistant", content="What's new?"), Turn(seq=1, role="user", content=text)]
    return {c.statement: c.importance for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("text, moment, lasting", [
    ("I'm so stoked for the gallery opening tomorrow! I paint watercolors of birds.",
     "User is stoked for the gallery opening tomorrow", "User paints watercolors of birds"),
    ("I'm taking some time off this weekend. I have two ferrets named Pip and Tuck.",
     "User is taking some time off this weekend", "User has two ferrets named Pip and Tuck"),
])
def test_a_moment_beside_a_lasting_statement_waits(text, moment, lasting):
    found = _candidates(text)
    assert found[moment] <= MOMENT_IMPORTANCE
    assert found[lasting] > MOMENT_IMPORTANCE


def test_a_moment_alone_in_its_turn_keeps_its_importance():
    found = _candidates("I'm so stoked for the gallery opening tomorrow!")
    assert found["User is stoked for the gallery opening tomorrow"] > MOMENT_IMPORTANCE


@pytest.mark.parametrize("statement", ["User is inspired by their grandmother", "User is a nervous flyer",
                                       "User works weekends", "User loves tomatoes"])
def test_a_lasting_statement_is_no_moment(statement):
    assert not is_moment(statement)


def test_a_moment_beside_a_minor_statement_keeps_its_importance():
    # "User has pets" alone would not be remembered the first night: the turn would be left with nothing
    found = _candidates("I'm taking some time off this weekend to chill with my pets.")
    assert found["User is taking some time off this weekend to chill with their pets"] > MOMENT_IMPORTANCE
