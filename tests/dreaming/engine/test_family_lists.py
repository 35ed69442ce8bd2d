"""A family counted and then named keeps the names and ages with the count, in English and Chinese."""
import pytest

from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> list[str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message, statements", [
    ("I have two older sisters, Maya who is 34 and Priya who is 31, and a younger brother named Dev.",
     ["User has two older sisters: Maya (34) and Priya (31)", "User has a younger brother named Dev"]),
    ("We have three kids: Lily is 7, Sam is 5 and baby Noah just turned one.",
     ["User has three kids: Lily (7), Sam (5) and Noah (1)"]),
    ("I have two daughters (Ella, 9 and Rose, 6).", ["User has two daughters: Ella (9) and Rose (6)"]),
    ("I have two kids, Tom and Anna.", ["User has two kids: Tom and Anna"]),
    ("我有两个孩子，儿子8岁，女儿5岁。", ["用户有两个孩子，儿子8岁，女儿5岁"]),
])
def test_each_member_named_in_a_list_is_remembered_with_their_age(message, statements):
    found = _statements(message)
    assert found == statements  # not also "User has two kids", nor "User's household has three kids: Lily is 7"


@pytest.mark.parametrize("message, statement", [
    ("I have two sisters, but we don't talk much.", "User has two sisters"),
    ("我有两个姐姐，大姐叫王芳，二姐在上海。", "用户有两个姐姐，大姐叫王芳，二姐在上海"),
])
def test_a_count_followed_by_something_else_is_read_as_before(message, statement):
    assert statement in _statements(message)


def test_a_list_of_languages_is_no_title():
    assert "User speaks English, Hindi and a bit of French" in _statements("I speak English, Hindi and a bit of French.")
