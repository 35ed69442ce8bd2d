"""Chinese clause rules (dreaming/engine/chinese.py): who 我 is, what is about the chat, where a clause ends,
and an echo of the assistant's advice against a self-statement said after it."""
import pytest

from dreaming.engine.chinese import category_zh
from dreaming.engine.extract import extract_candidates
from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import Turn


def _statements(*turns: tuple[str, str]) -> list[str]:
    found = extract_candidates([Turn(seq=i, role=role, content=text) for i, (role, text) in enumerate(turns)])
    texts = {i: text for i, (_, text) in enumerate(turns)}
    assert all(quote_in_text(quote=c.quote, text=texts[c.seq]) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message", ["20世纪80至90年代，我国在国防建设上开始走自己的道路。",
                                     "我校今年的录取分数线提高了很多。", "我司主要生产汽车零部件。"])
def test_an_institutions_our_is_not_the_user(message):
    assert _statements(("user", message)) == []


@pytest.mark.parametrize("message, statement", [
    ("我国庆节去了北京。", "用户国庆节去了北京"),
    ("我军训的时候晒黑了很多。", "用户军训的时候晒黑了很多"),
])
def test_words_that_only_start_like_an_institution_are_still_the_user(message, statement):
    assert statement in _statements(("user", message))


@pytest.mark.parametrize("message, statement", [
    ("我们家养了一只猫，叫咪咪。", "用户家养了一只猫，叫咪咪"),
    ("我们家住在杭州。", "用户家住在杭州"),
])
def test_our_household_is_the_users(message, statement):
    assert statement in _statements(("user", message))


def test_any_other_we_is_not_the_user_alone():
    assert _statements(("user", "我们公司很大。")) == [] and _statements(("user", "我们住在杭州。")) == []


@pytest.mark.parametrize("message, statement", [
    ("我不喝咖啡，只喝茶。", "用户不喝咖啡"),
    ("我不吃辣。", "用户不吃辣"),
])
def test_what_the_user_does_not_eat_or_drink_is_remembered(message, statement):
    assert statement in _statements(("user", message))


def test_announcing_what_the_user_will_send_is_about_the_chat():
    message = "需要你充当资深的分析人员，我会给你发送活动的详细介绍内容，请你帮我整理出活动的基本信息:"
    assert _statements(("user", message)) == []


def test_what_someone_did_for_the_user_is_not_a_request():
    assert _statements(("user", "我朋友给我微信发了个定位，定位是西安钟楼。")) == ["用户的朋友给用户微信发了个定位"]
    assert _statements(("user", "我妈妈给我买了一只小狗。")) == ["用户的妈妈给用户买了一只小狗"]
    assert _statements(("user", "我想请你给我写一份微信回复文字。")) == []


@pytest.mark.parametrize("message, statement", [
    ("我养了一只猫，叫Milo。", "用户养了一只猫，叫Milo"),
    ("我养了只狗，名字叫旺财。", "用户养了只狗，名字叫旺财"),
])
def test_a_name_after_the_comma_stays_with_what_it_names(message, statement):
    assert _statements(("user", message)) == [statement]


def test_call_me_is_not_a_name_of_something_else():
    assert _statements(("user", "我叫李雪，叫我小雪就好。")) == ["用户叫李雪"]


def test_a_habit_and_a_liking_said_after_advice_are_still_the_user_speaking():
    advice = "提高语文水平需要多读书，多写作。"
    assert _statements(("assistant", advice), ("user", "我也喜欢写作，我每天傍晚都去散步。")) == [
        "用户也喜欢写作", "用户每天傍晚都去散步"]


def test_promising_to_follow_the_advice_is_not_a_hobby():
    # The activities are the assistant's words ("多读书，多写作"), taken up politely: no memory of the user's own.
    advice = "提高语文水平需要多读书，多写作。"
    assert _statements(("assistant", advice), ("user", "嗯，我会试着多读书、多写作，谢谢你的建议。")) == []


@pytest.mark.parametrize("message", [
    "这些都是非常好的建议，我会在日后的生活和学习中谨记你的话。",
    "好了，今天的聊天结束了，我感谢你跟我分享了这些有趣的事情。",
    "这些建议非常实用，我很感激。",
    "但是你的建议很有用，有空我可以去尝尝。",
])
def test_thanks_and_taking_the_assistants_word_are_about_the_chat(message):
    assert _statements(("user", message)) == []


def test_an_example_opening_the_sentence_is_not_part_of_the_statement():
    statements = _statements(("user", "比如我周末在准备攀岩用的装备。"))
    assert statements == ["用户周末在准备攀岩用的装备"]


@pytest.mark.parametrize("clause, category", [
    ("我真的感到很幸运", "emotion"), ("我现在感觉好多了", "emotion"), ("我感到很乏味", "emotion"),
    ("我感觉这本书很好看", "fact"),  # an opinion, not a feeling
    ("我很喜欢画画，感觉很放松", "preference"),
])
def test_how_the_user_feels_is_an_emotion(clause, category):
    assert category_zh(clause) == category
