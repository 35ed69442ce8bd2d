"""Chinese clauses that are pieces of a sentence, not statements of the user's (engine/chinese.py): 我 as an
object or an owner after someone else's verb, 对我来说, a clause about this chat ("你"), and the categories a
place's name or a feeling about oneself must not get wrong."""
import pytest

from dreaming.engine.chinese import category_zh
from dreaming.engine.extract import extract_candidates
from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import Turn


def _statements(message: str) -> list[str]:
    found = extract_candidates([Turn(seq=0, role="user", content=message)])
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message, piece", [
    ("新工作挺好的，而且对我来说压力不算大。", "用户来说"),  # 对我来说 is "for me", not a yes and a 我
    ("周末去海边走走，能缓解我的焦虑。", "缓解用户的焦虑"),  # someone else's verb owns 我的
    ("我报了一个摄影班，希望能提高我的构图水平，并拓宽我的眼界。", "拓宽用户的眼界"),
    ("项目经理总是要求我周末加班。", "要求用户"),  # 我 is who is asked
])
def test_a_piece_of_a_sentence_is_not_a_statement(message, piece):
    assert not any(piece in s for s in _statements(message))


def test_the_users_own_clause_next_to_a_piece_is_kept():
    statements = _statements("我报了一个摄影班，希望能提高我的构图水平，并拓宽我的眼界。")
    assert "用户报了一个摄影班" in statements
    assert "今天用户的心情特别好" in _statements("今天我的心情特别好。")


@pytest.mark.parametrize("message, statement", [
    ("但我的家乡在云南。", "用户的家乡在云南"),
    ("由于我比较内向，很少参加聚会。", "用户比较内向"),
    ("对，我在一家医院当护士。", "用户在一家医院当护士"),
])
def test_a_linking_word_or_a_yes_before_the_user_is_left_out(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message", [
    "今天我想跟你聊聊我新买的相机。",
    "我需要多向你学习。",
    "我很期待您的下一个故事。",
])
def test_a_clause_about_this_chat_with_the_assistant_is_not_a_memory(message):
    assert _statements(message) == []


def test_a_place_named_with_ge_is_no_brother_and_a_feeling_about_oneself_is_an_emotion():
    assert category_zh("我对芝加哥的建筑很感兴趣") == "preference"
    assert category_zh("我下个月要去哥本哈根出差") != "relation"
    assert category_zh("我哥哥下个月要去上海") == "relation"
    assert category_zh("我常常感觉自己比不上别人") == "emotion"


@pytest.mark.parametrize("message, kept, piece", [
    ("我做了一张复习计划表，以确保我每门课都能复习到。", "用户做了一张复习计划表", "确保"),
    ("为了我的健康，我每天跑步。", "用户每天跑步", "健康"),
])
def test_a_purpose_clause_belongs_to_the_clause_before(message, kept, piece):
    statements = _statements(message)
    assert kept in statements and not any(piece in s for s in statements)


@pytest.mark.parametrize("message, statement", [("以前我住在北京。", "以前用户住在北京"),
                                                ("以后我想当老师。", "以后用户想当老师")])
def test_before_and_after_are_times_not_purposes(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message", ["好的，我会去尝试一下。", "我会尽力去实践。"])
def test_taking_up_advice_politely_says_nothing_about_the_user(message):
    assert _statements(message) == []


def test_taken_with_something_unsaid_is_no_statement_but_taken_with_a_thing_is():
    assert not any("着迷" in s for s in _statements("我基本上已经着迷了，小说里的人物都非常有意思。"))
    assert "用户迷上了攀岩" in _statements("我迷上了攀岩。")
    assert "用户对书法着迷了" in _statements("我对书法着迷了。")
