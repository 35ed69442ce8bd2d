""""User is married to a doctor", "User's wife is a doctor at the city hospital" and 用户的老婆是医生 are one person:
the same thing said again (or said with more), never a second memory; a divorce still ends the marriage."""
import pytest

from dreaming.engine import slots
from dreaming.engine.compare import compare_statements
from dreaming.protocol import MemoryRef


def _compared(new: str, memory: str):
    return compare_statements([new], [MemoryRef(id=1, statement=memory, category="relation")])[0]


@pytest.mark.parametrize(("new", "memory"), [
    ("User is married to a doctor", "User's wife is a doctor at the city hospital"),
    ("用户的老婆是医生", "User is married to a doctor"),
    ("User's husband is a nurse", "用户的老公是护士"),
    ("用户嫁给了一个医生", "User's husband is a doctor"),
])
def test_the_spouse_said_again_in_other_words_reinforces(new, memory):
    assert _compared(new, memory).relation == "reinforces"


def test_the_spouse_said_with_more_keeps_the_fuller_wording():
    compared = _compared("User's wife is a doctor at the city hospital", "User is married to a doctor")
    assert compared.relation == "adds_detail"
    assert compared.statement == "User's wife is a doctor at the city hospital"


def test_married_to_and_the_wifes_job_are_the_same_thing_in_any_language():
    assert slots.same_thing("User is married to a doctor", "用户的老婆是医生")
    assert not slots.same_thing("User is married to a doctor", "User's sister is a doctor")


@pytest.mark.parametrize("new", ["User is divorced", "用户离婚了"])
def test_a_divorce_still_ends_a_marriage_said_with_the_spouses_job(new):
    assert _compared(new, "User is married to a doctor").relation == "contradicts"


def test_another_person_is_not_the_spouse():
    assert _compared("User's sister is a doctor", "User is married to a doctor").relation == "new"
    assert _compared("User is married to their job", "User's wife is a doctor").relation != "reinforces"


def test_same_spouse_reads_words_not_letters():
    from dreaming.engine.spouses import same_spouse

    assert same_spouse("User is married to a doctor", "User's wife is a doctor at the city hospital")
    assert not same_spouse("User is married to a doctor", "User's wife is a doctoral student")
    assert not same_spouse("User is married to a doctor", "User's sister is a doctor at the city hospital")



@pytest.mark.parametrize(("new", "memory"), [("用户结婚了", "用户的老婆是医生"), ("User is married", "User's wife is a doctor")])
def test_a_bare_marriage_stays_a_status_of_its_own(new, memory):
    assert _compared(new, memory).relation == "new"
    assert _compared(memory, new).relation == "new"
    assert _compared("User is divorced", "User is married").relation == "contradicts"
