"""What "my <someone or something>" says the user has, wherever it is said (dreaming/engine/possessions.py)."""
import pytest

from dreaming.engine.possessions import possessions
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(*texts: str) -> set[str]:
    turns = [Turn(seq=i, role="user", content=text) for i, text in enumerate(texts)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("sentence, has", [
    ("You better not be laughing at my mini van.", "User has a mini van"),
    ("I love long walks with my husband.", "User has a husband"),
    ("Sitting here with my beautiful shepherd.", "User has a beautiful shepherd"),
    ("I bought a toy for my fifth son.", "User has at least five sons"),
    ("Well now with my major in economics I love guiding people.", "User has a major in economics"),
    ("She took our kids, too.", "User has kids"),
    ("I would always take my german shepherd to the track!", "User has a german shepherd"),
    ("Do you want to see a picture of my horse?", "User has a horse"),
    ("Running my own bakery is hard work.", "User has their own bakery"),
])
def test_a_possession_said_in_passing_is_a_fact_of_its_own(sentence, has):
    assert has in _statements(sentence)


@pytest.mark.parametrize("sentence", [
    "I sold my truck last year.",
    "I want my own horse someday.",
    "My dream car is a mustang.",
    "My ex-wife lives in Ohio.",
    "My mom loves cats.",
    "We should paint our car.",
    "I already got one little girl and the twins on their way.",
    "Can you help me write a poem about my cat?",
    "My husband and I are separated.",
    "My boyfriend and I broke up last month.",
    "My wife and I got divorced in 2019.",
    "My girlfriend just dumped me.",
    "My virtual dog in the game is so cute.",  # not a real thing (the words pursuits.py also reads as not owned)
])
def test_a_thing_gone_wished_for_or_not_the_users_is_not_had(sentence):
    assert not [s for _, s, _ in possessions(sentence) if s.startswith("User has")]


def test_a_lasting_fact_about_the_thing_already_says_it_is_there():
    found = _statements("My sister lives in Berlin.")
    assert "User's sister lives in Berlin" in found
    assert "User has a sister" not in found


def test_a_parent_is_not_spelled_out_as_a_possession():
    assert not possessions("My dad keeps setting up blind dates for me.")


def test_a_partner_the_user_split_from_is_not_a_partner_they_have():
    statements = _statements("My husband and I are separated, so it's just me and the kids now.")
    assert "User has a husband" not in statements
    assert "User and their husband are separated" in statements


def test_a_partner_the_user_says_they_broke_up_with_later_in_the_sentence_is_not_had():
    statements = _statements("I used to watch it with my boyfriend all the time, but we broke up.")
    assert "User has a boyfriend" not in statements
    assert "User has a husband" in _statements("I go hiking with my husband and we love it.")
