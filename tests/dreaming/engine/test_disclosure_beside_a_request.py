"""A disclosure said beside a request ("I'm vegetarian, no mushrooms please") is still the user's fact."""
import pytest

from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def _statements(text: str) -> set[str]:
    turns = [Turn(seq=0, role="assistant", content="Hi! What can I cook for you?"), Turn(seq=1, role="user", content=text)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("text, fact", [
    ("I'm vegetarian, no mushrooms please. Can you suggest a dinner recipe?", "User is vegetarian"),
    ("I'm vegan, nothing with honey please.", "User is vegan"),
    ("I'm on a budget, nothing too expensive please.", "User is on a budget"),
])
def test_a_diet_said_beside_a_request_is_kept(text, fact):
    assert fact in _statements(text)


def test_the_request_itself_is_not_a_memory():
    statements = _statements("I'm vegetarian, no mushrooms please.")
    assert not any("mushroom" in s for s in statements)
