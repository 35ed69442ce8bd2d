"""Where a sentence ends: the period of an abbreviation ("Dr.", "St. Mary's", "e.g.") does not end one."""
import pytest

from dreaming.engine.language import sentences
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def _split(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


@pytest.mark.parametrize("text, expected", [
    ("I work night shifts at St. Mary's. It's tiring.", ["I work night shifts at St. Mary's.", "It's tiring."]),
    ("My dentist is Dr. Kim. She is nice.", ["My dentist is Dr. Kim.", "She is nice."]),
    ("The office is on Main St. How long is the drive?", ["The office is on Main St.", "How long is the drive?"]),
    ("I like fruit, e.g. apples and pears. Fine.", ["I like fruit, e.g. apples and pears.", "Fine."]),
    ("Class starts at 9 a.m. sharp. I'm late.", ["Class starts at 9 a.m. sharp.", "I'm late."]),
    ("I ran 5 miles. Then I slept.", ["I ran 5 miles.", "Then I slept."]),
])
def test_an_abbreviation_period_does_not_end_the_sentence(text, expected):
    assert _split(text) == expected


def test_a_workplace_named_after_a_saint_stays_whole_in_the_memory():
    turns = [Turn(seq=0, role="user", content="My name is Priya. I work night shifts at St. Mary's hospital.")]
    statements = {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}
    assert "User works night shifts at St. Mary's hospital" in statements
    assert not any(s.endswith(" St") for s in statements)
