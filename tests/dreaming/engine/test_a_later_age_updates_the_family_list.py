"""A family list is one memory ("User has two kids: Lily (7) and Max (4)"); a later age of one of its members
("Lily turned 8", 小明今年八岁了, 用户的儿子今年9岁了) updates the list instead of leaving it wrong."""
from datetime import datetime, timezone

import pytest

from dreaming.engine.compare import compare_statements, slot_keys
from dreaming.engine.family_ages import list_with_new_age
from dreaming.protocol import CallContext, MemoryRef, Turn
from dreaming.providers.local import LocalDreamer

SAID_AT = datetime(2026, 11, 20, 10, tzinfo=timezone.utc)


def _statements(message: str) -> list[str]:
    turns = [Turn(seq=0, role="user", content=message, created_at=SAID_AT)]
    return [c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())]


@pytest.mark.parametrize(("said", "family", "updated"), [
    ("Lily turned 8 in the week before 20 November 2026", "User has two kids: Lily (7) and Max (4)",
     "User has two kids: Lily (8) and Max (4)"),
    ("User's daughter Lily is now 8", "User has two kids: Lily (7) and Max (4)", "User has two kids: Lily (8) and Max (4)"),
    ("小明今年八岁了", "用户有两个孩子：小明（7岁）和小红（4岁）", "用户有两个孩子：小明（8岁）和小红（4岁）"),
    ("用户的儿子今年9岁了", "用户有两个孩子，儿子8岁，女儿5岁", "用户有两个孩子，儿子9岁，女儿5岁"),
])
def test_a_later_age_is_read_into_the_list(said, family, updated):
    assert list_with_new_age(said, family) == updated
    compared = compare_statements([said], [MemoryRef(id=7, statement=family, category="relation")])[0]
    assert (compared.relation, compared.memory_id, compared.statement) == ("adds_detail", 7, updated)


@pytest.mark.parametrize(("said", "family"), [
    ("Anna turned 30", "User has two kids: Lily (7) and Max (4)"),  # not in the list
    ("Max is 4 now", "User has two kids: Lily (7) and Max (4)"),  # nothing new
    ("Lily is a teacher", "User has two kids: Lily (7) and Max (4)"),
])
def test_a_statement_that_gives_no_new_age_of_a_member_leaves_the_list(said, family):
    assert list_with_new_age(said, family) is None


def test_the_list_and_the_age_share_a_key_so_deep_sleep_compares_them():
    assert slot_keys("Lily turned 8 in the week before 20 November 2026") & slot_keys(
        "User has two kids: Lily (7) and Max (4)")


def test_a_birthday_and_a_named_chinese_family_list_are_read():
    assert "Lily turned 8 in the week before 20 November 2026" in _statements("Lily turned 8 last week, we had a party.")
    assert "Max turned five around 20 November 2026" in _statements("Max just turned five!")
    assert not any("Obama" in s for s in _statements("Obama turned 60 in 2021."))
    assert "小明今年八岁了" in _statements("小明今年八岁了。")
    assert "用户有两个孩子：小明（7岁）和小红（4岁）" in _statements("我有两个孩子：小明（7岁）和小红（4岁）。")
