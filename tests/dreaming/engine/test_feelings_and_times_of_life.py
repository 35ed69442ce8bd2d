"""A feeling is an emotion whoever it is about; "since I was 6" is when a habit began, not a second clause."""
import pytest

from dreaming.engine.categories import category_by_definition
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> dict[str, str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    return {c.statement: c.category for c in found}


@pytest.mark.parametrize("message, statement", [
    ("I'm so happy for my brother.", "User is happy for their brother"),
    ("I'm really worried about my mum.", "User is worried about their mum"),
    ("我为我哥感到高兴。", "用户为自己的哥感到高兴"),
    ("我搬到这里以后觉得很孤单。", "用户搬到这里以后觉得很孤单"),
])
def test_a_feeling_about_someone_is_an_emotion(message, statement):
    assert _statements(message).get(statement) == "emotion"


@pytest.mark.parametrize("statement, category", [
    ("User's sister is so happy", "relation"),  # her feeling, said of the user's sister: who she is to the user
    ("用户的妈妈很开心", "relation"),
    ("User has a brother", "relation"),
])
def test_someone_elses_feeling_stays_where_the_rules_put_it(statement, category):
    assert category_by_definition(statement=statement, category=category) == category


@pytest.mark.parametrize("message, statement, category", [
    ("I've played piano since I was 6.", "User has played piano since they were 6", "fact"),
    ("I have been swimming since I was a kid.", "User has been swimming since they were a kid", "fact"),
    ("I've been vegetarian since I was 12, and I love tofu.", "User has been vegetarian since they were 12", "fact"),
])
def test_since_an_age_stays_with_the_habit(message, statement, category):
    found = _statements(message)
    assert found.get(statement) == category
    assert not [s for s in found if s.startswith("User was ")]


def test_since_as_because_still_ends_the_clause():
    assert "User was up all night" in _statements("I'm tired since I was up all night.")


@pytest.mark.parametrize("message, statement", [
    ("We're planning a trip to Iceland next summer.", "User is planning a trip to Iceland next summer"),
    ("I'm going to Portugal in two weeks.", "User is going to Portugal in two weeks"),
])
def test_a_trip_ahead_is_an_event(message, statement):
    assert _statements(message).get(statement) == "event"


@pytest.mark.parametrize("message, statement", [
    ("I moved to Toronto when I was 12.", "User moved to Toronto when they were 12"),
    ("I moved to Toronto when I was a kid.", "User moved to Toronto when they were a kid"),
    ("When I was 12, I moved to Toronto.", "User moved to Toronto when they were 12"),
    ("I started playing chess when I was 8.", "User started playing chess when they were 8"),
])
def test_when_at_an_age_stays_with_what_happened(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message, statement", [
    ("I go climbing every Saturday with friends.", "User goes climbing every Saturday with friends"),
    ("I go hiking with my dad every Sunday.", "User goes hiking with their dad every Sunday"),
    ("我每周六都和朋友去攀岩。", "用户每周六都和朋友去攀岩"),
])
def test_a_habit_done_with_someone_is_a_fact_not_a_relation(message, statement):
    assert _statements(message).get(statement) == "fact"


def test_living_with_someone_stays_a_relation():
    assert _statements("I live with my parents.").get("User lives with their parents") == "relation"


@pytest.mark.parametrize("statement, category", [
    ("User still lives with their parents", "relation"),
    ("User and their boyfriend are moving in together next weekend", "event"),
    ("User starts business school next year to be a banker like parents", "event"),
])
def test_a_statement_without_a_with_phrase_keeps_the_plan_rule(statement, category):
    from dreaming.engine.english import category_en
    assert category_by_definition(statement=statement, category=category_en(statement)) == category
