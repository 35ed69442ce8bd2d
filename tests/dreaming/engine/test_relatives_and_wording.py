"""What is said of a relative named in apposition, of a couple's years, of a pet named later, of news told
without "I"; and statements worded as a user would read them (appositive_predicates.py, we_are.py, wording.py)."""
import pytest

from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(*texts: str) -> set[str]:
    turns = []
    for text in texts:
        turns += [Turn(seq=len(turns), role="assistant", content="How are you?"),
                  Turn(seq=len(turns) + 1, role="user", content=text)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("sentence, said", [
    ("My wife, Laura, is a teacher", "User's wife Laura is a teacher"),
    ("Anna, my sister, is a nurse", "User's sister Anna is a nurse"),
    ("Well, my brother, Tom, works at Google as an engineer", "User's brother Tom works at Google as an engineer"),
    ("Tom, my best friend, lives with me", "User's best friend Tom lives with User"),
    ("My dad, Jim, used to be a firefighter", "User's dad Jim used to be a firefighter"),
])
def test_what_is_said_of_a_relative_named_in_apposition_is_kept_with_the_name(sentence, said):
    assert said in _statements(sentence)


def test_a_relative_named_in_apposition_without_a_predicate_keeps_the_name():
    assert "User's son is named Leo" in _statements("My son, Leo, and I went fishing")


@pytest.mark.parametrize("sentence, said", [
    ("we've been married for 7 years", "User has been married for 7 years"),
    ("We have been together for 3 years", "User has been in a relationship for 3 years"),
    ("We got married in 2015", "User got married in 2015"),
    ("we have been dating since March", "User has been dating someone since March"),
])
def test_a_couple_s_years_are_kept(sentence, said):
    assert said in _statements(sentence)


@pytest.mark.parametrize("turns, said", [
    (("We adopted a rescue cat last month", "We named her Mochi"), "User's cat is named Mochi"),
    (("We have a dog named Max. And a cat, her name is Luna.",), "User's cat is named Luna"),
    (("Just got a kitten!", "I named him Pixel"), "User's kitten is named Pixel"),
])
def test_a_pet_named_after_it_was_mentioned(turns, said):
    assert said in _statements(*turns)


@pytest.mark.parametrize("sentence, said", [
    ("Starting at Google on Monday", "User is starting at Google on Monday"),
    ("Leaving for Lisbon tomorrow", "User is leaving for Lisbon tomorrow"),
])
def test_news_without_its_subject_is_the_user_s(sentence, said):
    assert said in _statements(sentence)


@pytest.mark.parametrize("sentence, said", [
    ("I've been a nurse for About eight years", "User has been a nurse for about eight years"),
    ("I like, Frida Kahlo", "User likes Frida Kahlo"),
    ("I'm pretty sure I left my keys at the office", "User is pretty sure they left their keys at the office"),
    ("I drink like 4 cups a day", "User drinks about 4 cups a day"),
    ("I read like, three books a month", "User reads about three books a month"),
    ("I cook usually, yeah", "User cooks usually"),
])
def test_statements_read_as_the_user_would_say_them(sentence, said):
    assert said in _statements(sentence)


@pytest.mark.parametrize("sentence, kept", [
    ("I would like 2 tickets for the show", "like 2"),
    ("I love Gone With the Wind", "Gone With the Wind"),
    ("I turned right", "right"),
])
def test_wording_leaves_what_it_should_not_touch(sentence, kept):
    assert any(kept in s for s in _statements(sentence)) or not _statements(sentence)


@pytest.mark.parametrize("sentence", ["Better than I expected", "More fun than I thought"])
def test_a_comparison_without_its_subject_is_not_kept(sentence):
    assert not any("than User" in s for s in _statements(sentence))
