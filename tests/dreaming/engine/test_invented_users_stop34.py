"""What invented users said in stop 34's end-to-end runs, read as they meant it (EN and ZH)."""
import pytest

from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> list[str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message, statement", [
    # boys and girls are counted kin too, and what is said of them all after the list is no member
    ("We have two boys, Eli is 9 and Sam is 6, both picky eaters.", "User has two boys: Eli (9) and Sam (6)"),
    ("I have two girls, Mia is 7 and Zoe is 4 - they keep me busy", "User has two girls: Mia (7) and Zoe (4)"),
    # a couple's children are the user's, not the household's
    ("We have two kids.", "User has two kids"),
    ("We have a baby girl.", "User has a baby girl"),
])
def test_a_couples_children_are_the_users_with_their_names_and_ages(message, statement):
    assert statement in _statements(message)


def test_what_a_household_owns_stays_the_households():
    assert "User's household has two dogs" in _statements("We have two dogs.")


@pytest.mark.parametrize("message, statement", [
    ("She's excited, she found a job there. We're also engaged now :)", "User is engaged"),
    ("We are married now.", "User is married"),
    ("We're officially engaged!", "User is engaged"),
])
def test_a_couple_that_is_now_engaged_or_married_is_the_users_own(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message, statement", [
    ("my cricket team won the league on Sunday btw, I'm the captain", "User is the captain of their cricket team"),
    ("My band played a gig last night, I'm the lead singer", "User is the lead singer of their band"),
])
def test_a_role_takes_the_group_named_in_the_clause_before(message, statement):
    found = _statements(message)
    assert statement in found and "User is the captain" not in found


def test_a_role_with_no_group_before_stays_as_said():
    assert "User is the drummer" in _statements("I play in a band with friends. I'm the drummer.")


def test_no_children_said_between_two_clauses_keeps_the_subject_for_the_next():
    found = _statements("我们结婚三年了，还没有孩子，养了一只布偶猫叫奶茶。")
    assert {"用户结婚三年了", "用户还没有孩子", "用户养了一只布偶猫叫奶茶"} <= set(found)


def test_a_clause_saying_the_user_has_no_time_is_no_continuation():
    assert "用户没有时间" not in _statements("我结婚三年了，没有时间，养了一只猫。")


@pytest.mark.parametrize("message, statement", [
    ("我们打算明年春天要个孩子", "用户打算明年春天要个孩子"),
    ("我们计划年底搬到杭州", "用户计划年底搬到杭州"),
])
def test_a_couple_planning_a_child_or_a_move_is_the_user(message, statement):
    assert statement in _statements(message)


def test_wanting_an_answer_is_no_child():
    assert _statements("我们要个说法") == []
