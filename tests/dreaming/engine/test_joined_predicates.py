"""Two things the user says of themself joined by "and" become two statements, each with its subject (issue #16,
MSC): "User is a nurse and has two kids" answers neither "what does the user do?" nor "do they have children?" well."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.joined_predicates import joined_predicates
from dreaming.protocol import Turn


def _statements(said: str, *, asked: str = "") -> list[str]:
    turns = [Turn(seq=0, role="assistant", content=asked)] if asked else []
    return [c.statement for c in extract_candidates(turns + [Turn(seq=1, role="user", content=said)])]


@pytest.mark.parametrize("statement,parts", [
    ("User plays video games and listens to music", ["User plays video games", "User listens to music"]),
    ("User is a nurse and has two kids", ["User is a nurse", "User has two kids"]),
    ("User loves coffee and tries new ways to brew", ["User loves coffee", "User tries new ways to brew"]),
    ("User is 43 and tries to buy only organic products", ["User is 43 years old", "User tries to buy only organic products"]),
    ("User's dog loves the beach and hates the rain", ["User's dog loves the beach", "User's dog hates the rain"]),
    ("User is from ohio and still works as a nurse", ["User is from ohio", "User still works as a nurse"]),
    ("User has a cat and also has two dogs", ["User has a cat", "User has two dogs"]),
])
def test_two_predicates_joined_by_and_are_two_statements(statement, parts):
    assert joined_predicates(statement) == parts


@pytest.mark.parametrize("statement", [
    "User likes fast cars and new people",               # a list of things, one predicate
    "User has 2 dogs and a cat",
    "User likes to swim and walk on the beach",          # both verbs under one "to"
    "User tried mediterranean food and loved it",        # the second part leans on the first
    "User likes mickey mouse and wants to travel to see him",
    "User is from ohio and still lives there",
    "User never smokes and drinks",                      # the negation may reach over both verbs
    "User doesn't eat meat and drinks no milk",
    "User is torn between staying and moves on",         # one predicate over two things
    "User got up and went to work",                      # a first part that says nothing alone
    "User's neighbor john -- fantastic guy -- got hurt and can't play anymore",
    "User was born and raised in ohio",                  # one auxiliary before two participles
    "User has lived in spain and worked as a nurse",
    "User has a dog who competes and takes dog agility classes",  # the classes may be the dog's
    "User had been wanting to try yoga for a while and took the plunge",  # a story told in order
    "User stays positive and finds a way",               # a light verb's idiom leans on the first part
])
def test_what_is_one_predicate_or_leans_on_the_other_stays_one_statement(statement):
    assert joined_predicates(statement) == [statement]


def test_a_turn_that_says_two_things_of_the_user_gives_two_memories():
    statements = _statements("Play video games and listen to music. How about you", asked="What do you do for fun?")
    assert "User plays video games" in statements
    assert "User listens to music" in statements
    assert not any(" and listens" in s for s in statements)
    statements = _statements("I am 43 and try to buy only organic products")
    assert {"User is 43 years old", "User tries to buy only organic products"} <= set(statements)
