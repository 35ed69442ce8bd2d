"""What "we are …" and "our <someone or something> …" say of the user (dreaming/engine/we_are.py)."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn


def _statements(text: str) -> list[str]:
    found = extract_candidates([Turn(seq=0, role="user", content=text)], limit=100)
    assert all(c.quote in text for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize(("text", "statement"), [
    ("Yeah, well, we are farmers. Sometimes it is a hard life.", "User is a farmer"),
    ("We're both nurses at the county hospital", "User is a nurse at the county hospital"),
    ("Were you born here? We are from india.", "User is from india"),
    ("Our scorpion pit is located in the basement.", "User's scorpion pit is located in the basement"),
    ("No, she does not. Our oldest son tries to sing.", "User's oldest son tries to sing"),
])
def test_what_we_are_and_what_is_ours_is_said_of_the_user(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "We are friends now.",
    "We are so excited!",
    "Our conversation is fun.",
    "Are we from the same town?",
])
def test_a_we_or_our_that_names_no_role_place_or_thing_of_the_users_says_nothing(text):
    assert not [s for s in _statements(text) if s.startswith(("User is a", "User is from", "User's"))]
