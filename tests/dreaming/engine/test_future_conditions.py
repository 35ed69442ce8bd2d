"""A clause that is the time or condition of something to come ("When I'm old enough …, I'll …") says nothing the
user is now: kept whole, "When I'm old enough to shop for myself" read "User is old enough to shop for themself"."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn


def _statements(said: str) -> list[str]:
    return [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=said)])]


@pytest.mark.parametrize("said", [
    "When I'm old enough to shop for myself, I'll.",
    "When I am not reading, you will see me running.",
])
def test_a_time_or_condition_to_come_is_no_fact_of_the_user(said):
    statements = _statements(said)
    assert not any("old enough" in s or s.startswith("When User") for s in statements)


def test_a_past_time_still_tells_what_happened():
    assert _statements("When I was born my heart was outside of my body")
    assert "User will move to Florida" in _statements("When I retire, I'll move to Florida.")
