"""A second thing the user says of themself after a comma becomes a statement of its own (issue #16, MSC):
"I am a 24 year old woman from argentina, living in australia" is who the user is and where they live."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.second_predicates import second_predicates
from dreaming.protocol import Turn


def _statements(said: str) -> list[str]:
    return [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=said)])]


@pytest.mark.parametrize("said,statements", [
    ("I am a 24 year old woman from argentina, living in australia",
     ["User is a 24 year old woman from argentina", "User is living in australia"]),
    ("I am kind of old, a senior citizen", ["User is kind of old", "User is a senior citizen"]),
    ("I am a musician, big fan of beethoven", ["User is a musician", "User is a big fan of beethoven"]),
    ("I'm tired of my parents bothering me, hoping to move out soon",
     ["User is tired of their parents bothering them", "User is hoping to move out soon"]),
])
def test_a_participle_or_what_the_user_is_after_a_comma_is_a_second_statement(said, statements):
    found = _statements(said)
    assert all(s in found for s in statements), found
    quotes = {c.quote for c in extract_candidates([Turn(seq=0, role="user", content=said)])}
    assert len(quotes) == 1  # both are proved by the same words of the user


@pytest.mark.parametrize("statement", [
    "User's sister makes a ton of money, dancing on poles",  # the dancing is the sister's
    "User likes beaches, hiking, learning new languages",  # a list
    "User loves the crowds, getting to know people",  # what is loved, not a second predicate
    "User got hired yesterday as a life coach, thanks for asking",  # a comment
    "User is alright, taking a break",  # small talk on both sides
    "User is a truck driver, not very glamorous",  # a comment on the first
    "User is reading a new book, a thriller by Harlan Coben",  # what the book is, not the user
    "User is working on their thesis, a tool for their lab",
    "User is from Ohio, a small state",  # what the place is
])
def test_what_is_no_second_predicate_of_the_user_stays_one_statement(statement):
    assert second_predicates(statement) == [statement]
