"""Chinese short answers read with the assistant's question (chinese_answers.py): the answer drops the subject and
often the verb, the question gives them back."""
import pytest

from dreaming.engine.quotes import quote_in_text, statement_unsupported
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(asked: str, answer: str) -> dict[str, str]:
    turns = [Turn(seq=0, role="assistant", content=asked), Turn(seq=1, role="user", content=answer)]
    found = LocalDreamer().extract(turns=turns, ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=answer) for c in found)
    return {c.statement: c.category for c in found}


@pytest.mark.parametrize("asked, answer, statement", [
    ("你做什么工作？", "程序员。", "用户是程序员"),
    ("很高兴认识你！你是做什么的？", "做设计的。", "用户是做设计的"),
    ("你住在哪里？", "杭州。", "用户住在杭州"),
    ("你在哪里工作？", "一家互联网公司，做前端开发。", "用户在一家互联网公司工作"),
    ("你多大了？", "28岁。", "用户28岁"),
    ("你叫什么名字？", "小李。", "用户叫小李"),
    ("请问您贵姓？", "免贵姓张。", "用户姓张"),
    ("你老家是哪里的？", "四川成都的。", "用户来自四川成都"),
    ("你平时喜欢做什么？", "看书，偶尔打打羽毛球。", "用户喜欢看书"),
    ("你周末一般干嘛？", "睡懒觉，哈哈。", "用户喜欢睡懒觉"),
    ("你喜欢吃什么？", "川菜，特别是水煮鱼。", "用户喜欢吃川菜"),
    ("你最喜欢的电影是什么？", "《霸王别姬》。", "用户最喜欢的电影是《霸王别姬》"),
])
def test_a_verbless_answer_takes_the_frame_of_the_question(asked, answer, statement):
    assert statement in _statements(asked, answer)


@pytest.mark.parametrize("asked, answer, statement", [
    ("你有孩子吗？", "我没有孩子。", "用户没有孩子"),
    ("你有孩子吗？", "没有。", "用户没有孩子"),
    ("你有没有兄弟姐妹？", "没有，我是独生子女。", "用户没有兄弟姐妹"),
    ("你有孩子吗？", "有，一个儿子，今年五岁。", "用户有一个儿子"),
    ("你有宠物吗？", "有两只猫，一只叫橘子，一只叫豆豆。", "用户有两只猫，一只叫橘子，一只叫豆豆"),
    ("你养宠物了吗？", "养了一只柯基，叫旺财。", "用户养了一只柯基，叫旺财"),
    ("你有几个孩子？", "两个。", "用户有两个孩子"),
    ("你结婚了吗？", "还没有，不过有女朋友了。", "用户还没有结婚"),
    ("你吃辣吗？", "不吃，一点都吃不了。", "用户不吃辣"),
    ("你是学生吗？", "不是，已经工作了。", "用户不是学生"),
])
def test_a_yes_or_no_says_what_the_question_asked(asked, answer, statement):
    assert statement in _statements(asked, answer)


def test_the_names_after_a_count_stay_with_it_and_are_not_the_users():
    found = _statements("你有宠物吗？", "有两只猫，一只叫橘子，一只叫豆豆。")
    assert not any(s.startswith("用户叫") for s in found)


@pytest.mark.parametrize("asked, answer", [
    ("你觉得这个方案怎么样？", "挺好的。"),
    ("你想去哪里旅游？", "日本。"),
    ("你喜欢这个建议吗？", "喜欢。"),
    ("你是想写一篇文章吗？", "是的。"),
    ("你今天吃什么了？", "火锅。"),
    ("那你现在在哪里？", "在地铁上。"),
    ("需要我帮你做什么吗？", "帮我写个简历。"),
    ("你做什么工作？", "不告诉你。"),
    ("你多大了？", "你猜。"),
])
def test_an_answer_to_a_question_about_the_chat_or_the_moment_is_no_memory(asked, answer):
    assert _statements(asked, answer) == {}


@pytest.mark.parametrize("asked, answer", [
    ("你做什么工作？", "程序员。"),
    ("你老家是哪里的？", "四川成都的。"),
    ("你周末一般干嘛？", "睡懒觉，哈哈。"),
    ("你结婚了吗？", "结了，去年结的。"),
    ("你有孩子吗？", "没有。"),
    ("你有宠物吗？", "有两只猫，一只叫橘子，一只叫豆豆。"),
    ("你吃辣吗？", "不吃，一点都吃不了。"),
])
def test_deep_sleep_verifies_a_chinese_answer_with_its_question(asked, answer):
    turns = [Turn(seq=0, role="assistant", content=asked), Turn(seq=1, role="user", content=answer)]
    (found,) = LocalDreamer().extract(turns=turns, ctx=CallContext())
    assert statement_unsupported(statement=found.statement, quote=found.quote, message=answer, asked=asked) is None


def test_a_chinese_answer_verifies_nothing_the_question_did_not_ask():
    assert statement_unsupported(statement="用户是医生", quote="程序员", message="程序员。", asked="你做什么工作？")


def test_a_question_without_you_still_asks_the_user_and_what_follows_the_answer_is_theirs():
    found = _statements("好可爱！平时喜欢做什么？", "跑步和看电影，周末经常去奥森跑步。")
    assert "用户喜欢跑步和看电影" in found
    assert "用户周末经常去奥森跑步" in found


def test_what_follows_an_answer_about_a_child_is_not_the_users():
    found = _statements("你有孩子吗？", "有，一个儿子，今年五岁了。")
    assert "用户有一个儿子" in found and not any("五岁" in s for s in found)
