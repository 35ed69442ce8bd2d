"""The last touches to an English statement (wording.py) and the tail a clause carries along (clause_tails.py):
what stays is the fact, worded as the user would say it of themself."""
import pytest

from dreaming.engine.wording import tidy_en
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def _statements(text: str) -> set[str]:
    return {c.statement for c in LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=text)], ctx=CallContext())}


@pytest.mark.parametrize("said,worded", [
    ("User does like fruit", "User likes fruit"),
    ("User does have two dogs", "User has two dogs"),
    ("User also does ride horses competitively", "User also rides horses competitively"),
    ("User really does teach fourth graders", "User really teaches fourth graders"),
    ("User does miss the peacefulness of farm life", "User misses the peacefulness of farm life"),
])
def test_the_do_of_emphasis_gives_way_to_the_verb(said, worded):
    assert tidy_en(said) == worded


@pytest.mark.parametrize("said", [
    "User does volunteer work",  # "volunteer work" is what the user does
    "User does farm work",
    "User does not like fruit",
    "User does karate",
])
def test_does_as_the_verb_itself_or_a_negation_stays(said):
    assert tidy_en(said) == said


@pytest.mark.parametrize("text,kept,carried", [
    ("Im a truck driver, not very glamorous I know.", "User is a truck driver", "glamorous"),
    ("Its interesting since I migrated here from Mars, a lot has changed.", "User migrated here from Mars", "changed"),
])
def test_a_comma_splice_about_something_else_is_not_carried_into_the_statement(text, kept, carried):
    said = _statements(text)
    assert kept in said
    assert not [s for s in said if carried in s]


@pytest.mark.parametrize("text,statement", [
    ("I live in Ohio, it is a quiet place.", "User lives in Ohio"),
    ("I'm a vegetarian, not vegan.", "User is a vegetarian, not vegan"),  # a contrast is part of the fact
    ("I have two cats, and they love me.", "User has two cats"),
    # what a thing means to the user is kept with it
    ("I got the tattoo a few years ago, it stands for freedom.", "User got the tattoo a few years ago, it stands for freedom"),
    ("I met this amazing woman, Jean, who had been through hard times.",
     "User met an amazing woman, Jean, who had been through hard times"),
])
def test_the_fact_before_the_comma_is_still_read(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "I will definitely keep that into consideration.",
    "I will remember that.",
    "I am going to have to look it up.",
])
def test_advice_taken_says_nothing_of_the_user(text):
    assert not _statements(text)


@pytest.mark.parametrize("text,statement", [
    ("I will remember my trip to Peru forever.", "User will remember their trip to Peru forever"),
    ("I'm going to study law next year.", "User is going to study law next year"),
    ("I'm going to keep working hard on my novel.", "User is going to keep working hard on their novel"),
    ("I'll definitely keep spreading positivity and kindness.", "User will keep spreading positivity and kindness"),
])
def test_a_plan_or_a_memory_of_the_users_own_is_still_read(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("said,worded", [
    ("User got hired yesterday as a life coach, thanks for asking", "User got hired yesterday as a life coach"),
    ("User has a weakness for cats and vanilla ice cream, they're the best", "User has a weakness for cats and vanilla ice cream"),
    ("User likes to spend time with all kind of animals, love them", "User likes to spend time with all kind of animals"),
    ("User is female, of course", "User is female"),
    ("User is a lot better now, thankfully", "User is a lot better now"),
    ("User wears a hat, they don't know why", "User wears a hat"),
    ("User likes to gamble on their spare nights not cool huh", "User likes to gamble on their spare nights"),
])
def test_a_comment_after_the_fact_is_left_out(said, worded):
    assert tidy_en(said) == worded


@pytest.mark.parametrize("said", [
    "User's robot hates everything, like them",   # a comparison, not a comment ("just like me")
    "User has a dog, it is a lab",                # a second fact, not a comment
    "User loves it",
])
def test_what_says_more_than_a_comment_is_kept(said):
    assert tidy_en(said) == said


def test_a_fact_said_with_a_comment_is_remembered_without_it():
    assert "User got hired yesterday as a life coach" in _statements("I just got hired yesterday as a life coach, thanks for asking")


@pytest.mark.parametrize("said,worded", [
    ("User lives in the city now so its hard", "User lives in the city now"),
    ("User is in new york so yeah its very cold", "User is in new york"),
    ("User has kids, so video games in the house is a must", "User has kids"),
])
def test_a_consequence_joined_by_so_is_left_out(said, worded):
    assert tidy_en(said) == worded


@pytest.mark.parametrize("said", [
    "User is so happy they are finally 18",          # the "so" of degree
    "User saves money so they can buy a house",      # a short purpose stays
    "User loves it so much that they go every week",
    "Seeing User's kids' faces so happy at the beach was the best",
    "Seeing their characters User worked so hard on come alive was their favorite part",
])
def test_the_so_of_degree_or_purpose_is_kept(said):
    assert tidy_en(said) == said
