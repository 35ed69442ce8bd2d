"""Chinese hobbies as people say them: 热衷于…, examples after 比如, a dropped subject after 每周, a song title."""
import pytest

from dreaming.engine.chinese import category_zh
from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> dict[str, str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return {c.statement: c.category for c in found}


@pytest.mark.parametrize("message, statement", [
    ("我热衷于收集邮票。", "用户热衷于收集邮票"),
    ("我这几年一直痴迷摄影。", "用户这几年一直痴迷摄影"),
    ("我的兴趣爱好有很多，比如滑板、书法和烘焙。", "用户的兴趣爱好有很多，比如滑板、书法和烘焙"),
    ("我参加了一个合唱团，每周都去唱歌。", "用户每周都去唱歌"),
])
def test_a_hobby_said_in_everyday_chinese_becomes_a_statement(message, statement):
    assert statement in _statements(message)


def test_a_title_is_not_read_for_relations():
    assert category_zh("我最喜欢的是《听妈妈的话》") == "preference"
    assert category_zh("我妈妈是老师") == "relation"
