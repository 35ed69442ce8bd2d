"""A memory is read without its conversation: a statement leaning on an unresolved pronoun is not kept."""
import pytest

from dreaming.engine.standalone import says_nothing_alone
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def _statements(*pairs: tuple[str, str]) -> set[str]:
    turns = [Turn(seq=i, role=role, content=text) for i, (role, text) in enumerate(pairs)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("statement", [
    "He chewed User's favorite shoes yesterday",
    "It's quieter, User loves it",
    "This is User's go-to place for writing inspiration",
    "It's User's own story",
    "User liked it",
    "User does not like it a lot",
    "User's roommate has one",
    "User misses her",
])
def test_a_statement_leaning_on_an_unresolved_pronoun_says_nothing_alone(statement):
    assert says_nothing_alone(statement)


@pytest.mark.parametrize("statement", [
    "User works at a library now",
    "It's User's birthday on 12 May 2024",
    "It has been three years since User moved to Denver",
    "User named him Hogan",
    "User adopted her from a shelter in 2021",
    "User's dogs like it",
    "User's brother lives in Ohio",
])
def test_a_statement_that_carries_its_own_words_stands_alone(statement):
    assert not says_nothing_alone(statement)


def test_a_new_puppy_chewing_shoes_gives_no_memory_about_he():
    statements = _statements(
        ("assistant", "How's the new puppy settling in?"),
        ("user", "He chewed my favorite shoes yesterday lol."),
        ("assistant", "Oh no!"),
        ("user", "I work at a library now. It's quieter, I love it."),
    )
    assert "User works at a library now" in statements
    assert not any(s.startswith(("He ", "It")) or s.endswith(" it") for s in statements), statements


@pytest.mark.parametrize("statement", [
    "User wishes they could",  # "I wish I could": the verb stayed in the other side's words
    "User can not",
    "Yeah User did",
    "User's kids do",
    "User does, sometimes they don't",
    "User has to run now",  # taking leave of the chat
    "User will go now, see ya",
    "Been a pleasure, hope User helped",
    "User was cut off",
])
def test_an_auxiliary_for_an_unsaid_verb_or_a_goodbye_says_nothing_alone(statement):
    assert says_nothing_alone(statement)


@pytest.mark.parametrize("statement", [
    "User has a lot of things to do",  # there "do" is the verb itself
    "User does what they can do",
    "User likes chatting with strangers",
    "User has to run a marathon in May",
    "User will go to Spain next year",
    "User can not swim",
    "User did a triathlon",
    "User's kids have so much and others don't",  # the ellipsis is someone else's
    "User waits to hear back about how the first one did",
])
def test_a_statement_that_ends_on_its_own_verb_still_stands_alone(statement):
    assert not says_nothing_alone(statement)


def test_the_short_answers_and_the_goodbyes_of_a_chat_are_not_kept():
    said = _statements(("assistant", "Do you sail?"), ("user", "I wish I could. I get sea sick."),
                       ("assistant", "Great talking to you."), ("user", "Nice chatting with you. I've to run now. Bye"))
    assert "User gets sea sick" in said
    assert not [s for s in said if "could" in s or "run now" in s]
