"""What invented users said in helper h17's end-to-end runs (three sessions over three months), read as they meant it."""
import pytest

from dreaming.engine.endings import ended_in
from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def ended_by(new: str, old: str) -> str | None:
    """Why `old` is over once `new` is said, or None (engine.endings, one old memory at a time)."""
    found = ended_in(new, [old])
    return found[0][1] if found else None


def _found(message: str) -> dict[str, str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return {c.statement: c.category for c in found}


@pytest.mark.parametrize("message", ["I'm retired", "I sew a bit. I'm retired so I have lots of time", "I am retired now"])
def test_being_retired_is_a_lasting_fact_not_an_event(message):
    found = _found(message)
    retired = [s for s in found if s.startswith("User is retired")]
    assert retired and found[retired[0]] == "fact"


def test_retiring_at_a_time_stays_an_event():
    assert _found("I retired last year") == {"User retired last year": "event"}


@pytest.mark.parametrize("message, statement", [
    ("Tom and I are moving to Manchester in november, he got a job there", "User is moving to Manchester in november"),
    ("we are moving to Leeds next month, she got a job there", "User is moving to Leeds next month"),
    ("I'm learning Spanish, she says it's easy", "User is learning Spanish"),
])
def test_anothers_news_after_a_comma_is_not_the_users(message, statement):
    found = _found(message)
    assert statement in found
    assert not any(" got a job" in s or " says " in s for s in found)


@pytest.mark.parametrize("message, statement", [
    ("my grandkids, I have three of them", "User has three grandkids"),
    ("I adore my grandkids, I have 5 of them", "User has 5 grandkids"),
])
def test_how_many_of_a_group_the_user_has_names_the_group(message, statement):
    found = _found(message)
    assert statement in found and not any("of their" in s for s in found)


@pytest.mark.parametrize("message, statement", [
    ("she loves climbing, we go bouldering together now most weekends", "User goes bouldering now most weekends"),
    ("he likes the outdoors, we go hiking every sunday", "User goes hiking every sunday"),
])
def test_a_we_clause_after_someone_elses_is_read_on_its_own(message, statement):
    found = _found(message)
    assert statement in found and not any("loves climbing" in s or "likes the outdoors" in s for s in found)


def test_a_we_clause_after_a_named_companion_stays_with_them():
    assert "User's wife loves hiking, User and their wife go every sunday" in _found(
        "my wife loves hiking, we go every sunday")


@pytest.mark.parametrize("new, old, why", [
    ("User has given up knitting", "User wants to learn to knit", "no longer: knitting"),
    ("User gave up knitting", "User knits scarves for their grandkids", "no longer: knitting"),
    ("User quit running last month", "User runs 3 times a week", "no longer: running"),
    ("User stopped swimming", "User goes swimming every sunday", "no longer: swimming"),
])
def test_a_pastime_given_up_ends_what_was_said_of_it(new, old, why):
    assert ended_by(new, old) == why


@pytest.mark.parametrize("new, old", [
    ("User stopped smoking", "User's dad smokes"),
    ("User has given up knitting", "User does not knit"),
    ("User gave up knitting", "User loves hiking"),
])
def test_a_pastime_given_up_ends_nothing_else(new, old):
    assert ended_by(new, old) is None
