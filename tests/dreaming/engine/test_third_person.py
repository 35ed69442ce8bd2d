"""First person → third person (dreaming.engine.third_person), as the statements of english.en_statement read."""
import pytest

from dreaming.engine.english import en_statement


@pytest.mark.parametrize("quote,statement", [
    ("I taking spanish", "User is taking spanish"),  # chat left the "am" out: not "User takings spanish"
    ("I going to school in the fall", "User is going to school in the fall"),
    ("I usually unwinding with a book", "User is usually unwinding with a book"),
    ("I bring my dog to work", "User brings their dog to work"),  # a verb that ends in "ing" is still a verb
    ("I sing in a choir", "User sings in a choir"),
    ("I love hiking", "User loves hiking"),
])
def test_the_users_verb_agrees_and_a_participle_without_its_am_gets_it_back(quote, statement):
    assert en_statement(quote) == statement


@pytest.mark.parametrize("quote,statement", [
    ("I'm only 19", "User is 19 years old"),
    ("I am age 24", "User is 24 years old"),
    ("I'm thirty two", "User is thirty two years old"),
    ("I am 60, retiring in a few years", "User is 60 years old, retiring in a few years"),
])
def test_a_bare_number_after_i_am_is_said_as_an_age(quote, statement):
    assert en_statement(quote) == statement


@pytest.mark.parametrize("quote", ["I am 5 minutes away", "I am 100% sure", "I am 2 tired"])
def test_a_number_that_is_not_an_age_stays_as_said(quote):
    assert "years old" not in en_statement(quote)


def test_a_verb_chat_already_made_agree_is_not_conjugated_twice():
    from dreaming.engine.third_person import to_third_person_en

    assert to_third_person_en("I lives in america all my life") == "User lives in america all their life"
    assert to_third_person_en("I has a dog") == "User has a dog"
    assert to_third_person_en("I miss my dad") == "User misses their dad"
    assert to_third_person_en("I focus on work") == "User focuses on work"


@pytest.mark.parametrize("quote,statement", [
    ("I use to be in the military", "User used to be in the military"),
    ("I use to live in the country", "User used to live in the country"),
    ("I also use to play the banjo", "User also used to play the banjo"),
])
def test_chats_use_to_is_used_to_a_past_habit(quote, statement):
    assert en_statement(quote) == statement


def test_a_used_to_written_for_chats_use_to_passes_the_truth_guard():
    from dreaming.engine.quotes import statement_unsupported

    assert statement_unsupported(statement="User used to be in the military", quote="I use to be in the military") is None
    assert statement_unsupported(statement="User used to be in the military", quote="I am in the military")
