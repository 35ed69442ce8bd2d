"""The user speaking for their company or team ("we sell…", "our company…", "our customers") is the user: what
they do at work becomes a candidate — never a story's "we", a supposition or a line with nothing in it."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.self_disclosure import turn_disclosures
from dreaming.protocol import Turn


def _statements(text: str) -> list[str]:
    found = extract_candidates([Turn(seq=0, role="user", content=text)], limit=100)
    assert all(c.quote in text for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize(("text", "statement"), [
    ("We run a family bakery in Leeds and need a slogan.", "User runs a family bakery in Leeds"),
    ("we work with small dental clinics in Ohio", "User works with small dental clinics in Ohio"),
    ("We specialize in restoring vintage watches.", "User specializes in restoring vintage watches"),
    ("Our startup builds booking software for hostels.", "User's startup builds booking software for hostels"),
])
def test_what_the_users_company_does_is_said_of_the_user(text, statement):
    assert any(s.startswith(statement) for s in _statements(text)), _statements(text)


@pytest.mark.parametrize("text", [
    "We sell it.",  # nothing said
    "We sell them sometimes at the market.",  # what "them" is was said before
    "We make a great team.",  # an idiom
    "If we sell handmade soap online, what price should we ask?",  # a supposition
])
def test_an_empty_or_supposed_we_says_nothing(text):
    assert not any(s.startswith(("User sells", "User makes")) for s in _statements(text))


def test_our_customers_in_a_request_says_the_user_has_customers():
    assert "User has customers" in [s for _, s in turn_disclosures("Write an email to our customers about the delay.")]


def test_a_we_answering_about_the_user_and_their_family_keeps_the_family():
    turns = [Turn(seq=0, role="assistant", content="That playground looks cool! What do you and your family do there?"),
             Turn(seq=1, role="user", content="Thanks, Maria! We love climbing, sliding, and playing games.")]
    statements = [c.statement for c in extract_candidates(turns)]
    assert "User and their family love climbing and sliding" in statements
    assert "User loves climbing and sliding" not in statements  # the kids' fun is not the user's alone


def test_a_we_without_a_question_naming_the_others_is_still_the_user():
    assert "User loves climbing and sliding" in _statements("We love climbing, sliding, and playing games.")


def test_our_in_a_household_statement_becomes_their():
    assert "User's household bought their first home" in _statements("We just bought our first home!")
