"""A first person inside someone else's sentence is no statement about the user: a relative clause ("for
people I have not met"), talk about the chat ("the units I mentioned earlier"), a question opened by a
participle ("Building on this, could …?"). The user's own sentences around such words still are. The local
engine (dreaming/engine); examples invented in the shapes WildChat and persona chat show."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn


def _statements(text: str, *, before: str | None = None) -> list[str]:
    turns = ([Turn(seq=0, role="assistant", content=before)] if before else []) + [
        Turn(seq=len([before] if before else []), role="user", content=text)]
    return [c.statement for c in extract_candidates(turns)]


@pytest.mark.parametrize("text", [
    "Please make the speech friendly for guests I have never met before in Lisbon.",
    "Exactly what I wanted thanks, it works now",
    "Write a scene where each of the knights and wizards I described earlier will be present.",
    "The settings from the list I gave you above should stay the same.",
])
def test_a_first_person_inside_a_clause_about_something_else_is_no_statement(text):
    assert _statements(text) == []


@pytest.mark.parametrize("text", [
    "Building on this idea, could a short joke about the weather be a nice opening?",
    "Considering the budget, would a used car be a better choice?",
])
def test_a_question_opened_by_a_participle_is_not_the_users_activity(text):
    assert _statements(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("At home I have two cats.", "User has two cats"),
    ("On top of that I just bought my first car.", "User bought their first car"),
    ("There is a lot of dancing and I know all the steps.", "User knows all the steps"),
    ("Trail, that is great I love trail running.", "User loves trail running"),
])
def test_the_users_own_sentence_after_an_opening_phrase_is_still_read(text, expected):
    assert any(expected in s for s in _statements(text)), _statements(text)


def test_a_participle_opening_before_a_question_to_the_other_side_is_still_the_users_news():
    assert any("got back from the gym" in s or "gym" in s for s in _statements(
        "Just got back from the gym, do you work out?", before="How was your day?"))


@pytest.mark.parametrize("text", ["In Spain I meant", "No, in the second list I meant"])
def test_correcting_what_one_said_is_talk_about_the_chat(text):
    assert _statements(text) == []


@pytest.mark.parametrize("text", [
    "My unique combination of skills makes me an ideal candidate for this position.",
    "I am well equipped to grow the online presence of your brand.",
    "I am committed to delivering results that exceed expectations.",
])
def test_a_cover_letters_self_marketing_is_not_kept_about_the_user(text):
    assert _statements(text) == []


def test_a_plain_fact_in_the_same_letter_is_still_kept():
    statements = _statements("I am passionate about photography and I work as a nurse in Leeds.")
    assert "User works as a nurse in Leeds" in statements, statements
    assert any("passionate about photography" in s for s in statements), statements


def test_the_role_an_application_names_is_what_the_user_applies_for():
    statements = _statements("I believe my mix of skills makes me an ideal candidate for the junior data analyst "
                             "role, with the drive to learn fast.")
    assert statements == ["User is a candidate for the junior data analyst role"]
    assert _statements("My skills make me an ideal candidate for this role.") == []  # no role named


def test_the_background_an_application_opens_with_is_kept_without_its_praise():
    statements = _statements("With a strong background in retail banking, coupled with a love of numbers, I am "
                             "committed to delivering results that exceed expectations.")
    assert statements == ["User has a strong background in retail banking"]
    assert _statements("With a degree in chemistry, he became a teacher.") == []  # not the user's


@pytest.mark.parametrize("text", [
    "I want to take a moment to highlight the remarkable progress of Mira this term.",
    "I am confident that Mira's love of reading will keep growing.",
    "I am eager to deepen my knowledge to reach my career goals.",
])
def test_a_reports_or_letters_rhetoric_is_not_kept_about_the_user(text):
    assert _statements(text) == []
