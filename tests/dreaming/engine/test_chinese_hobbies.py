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


@pytest.mark.parametrize("message, statement, category", [
    ("周末经常去钓鱼，感觉特别放松。", "用户周末经常去钓鱼", "fact"),
    ("平时没事就喜欢拿本书坐在阳台上看。", "用户平时没事就喜欢拿本书坐在阳台上看", "preference"),
    ("下班以后一般会去健身房练一个小时。", "用户下班以后一般会去健身房练一个小时", "fact"),
    ("最近迷上了做陶艺，已经做了好几个杯子。", "用户最近迷上了做陶艺", "preference"),
])
def test_a_habit_said_without_a_subject_at_the_start_of_a_turn_is_the_users(message, statement, category):
    # Chinese drops 我 when it is obvious; a habit is no event at one time, however many weekends it names.
    assert _statements(message).get(statement) == category


@pytest.mark.parametrize("message", [
    "周末可以去爬山。",  # advice, not a habit
    "平时多去运动运动。",
    "周末经常去爬山吗？",
    "最近他迷上了钓鱼。",
    "最近你在看什么书？",
])
def test_advice_a_question_or_someone_else_is_not_a_habit_of_the_users(message):
    assert _statements(message) == {}


def test_signing_up_for_something_is_a_disclosure_and_a_plan_is_an_event():
    assert "用户报了一个陶艺班" in _statements("我报了一个陶艺班。")
    assert _statements("我打算明年去冰岛看极光。").get("用户打算明年去冰岛看极光") == "event"
