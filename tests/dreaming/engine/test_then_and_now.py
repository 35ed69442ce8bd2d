"""A change said with its before and its now ("I used to hate olives, now I love them") is one statement of
what holds now, not its "used to" half alone."""
import pytest

from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> dict[str, str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return {c.statement: c.category for c in found}


@pytest.mark.parametrize("message, statement, category", [
    ("I used to hate olives, now I love them.", "User used to hate olives, but now loves them", "preference"),
    ("Funny thing, I used to be a vegetarian, but now I eat meat.", "User used to be a vegetarian, but now eats meat", "fact"),
    ("I used to hate running, these days I run every morning.", "User used to hate running, but now runs every morning",
     "preference"),
    ("我以前讨厌吃香菜，现在很喜欢。", "用户以前讨厌吃香菜，现在很喜欢", "preference"),
    ("我以前住在北京，现在我住在上海。", "用户以前住在北京，现在住在上海", "fact"),
])
def test_a_change_is_kept_with_what_holds_now(message, statement, category):
    found = _statements(message)
    assert found.get(statement) == category
    # the "before" half alone says the opposite of what holds now
    assert not [s for s in found if s in ("User used to hate olives", "用户以前讨厌吃香菜", "User used to hate running")]


@pytest.mark.parametrize("message, statement", [
    ("I used to smoke.", "User used to smoke"),
    ("我以前讨厌吃香菜。", "用户以前讨厌吃香菜"),
])
def test_a_past_habit_without_a_now_stays_as_it_was_said(message, statement):
    assert statement in _statements(message)


def test_a_question_about_a_change_is_not_one():
    assert not any("now" in s for s in _statements("I used to hate olives, do you think I could love them now?"))
