"""First person → third person (dreaming.engine.third_person), as the statements of english.en_statement read."""
import pytest

from dreaming.engine.english import en_statement


@pytest.mark.parametrize("quote,statement", [
    ("I taking spanish", "User is taking spanish"),  # chat left the "am" out: not "User takings spanish"
    ("I going to school in the fall", "User is going to school in the fall"),
    ("I bring my dog to work", "User brings their dog to work"),  # a verb that ends in "ing" is still a verb
    ("I sing in a choir", "User sings in a choir"),
    ("I love hiking", "User loves hiking"),
])
def test_the_users_verb_agrees_and_a_participle_without_its_am_gets_it_back(quote, statement):
    assert en_statement(quote) == statement
