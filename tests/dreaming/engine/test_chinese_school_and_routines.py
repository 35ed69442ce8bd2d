"""Chinese exams, school, routines and in-laws, as people say them: results, wake-up times, a child's school year."""
import pytest

from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> list[str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message, statement", [
    ("我今年考研失败了。", "用户今年考研失败了"),
    ("我高考考了650分。", "用户高考考了650分"),
    ("我雅思考了7.5分。", "用户雅思考了7.5分"),
    ("我一般五点半起床。", "用户一般五点半起床"),
    ("我一般十二点左右睡觉。", "用户一般十二点左右睡觉"),
    ("我每天坐公交上班，大概要一个小时。", "用户每天坐公交上班，大概要一个小时"),
    ("我出生在拉各斯，十二岁搬到了多伦多。", "用户十二岁搬到了多伦多"),
    ("我儿子叫乐乐，今年九月上小学。", "用户的儿子今年九月上小学"),
    ("我婆婆跟我们住在一起。", "用户的婆婆跟用户住在一起"),
    ("我每周打两次羽毛球，从六岁开始学钢琴。", "用户从六岁开始学钢琴"),
    ("我每周游泳两次，从小就喜欢游泳。", "用户从小就喜欢游泳"),
    ("我弟弟在北京工作，从小就喜欢画画。", "用户的弟弟从小就喜欢画画"),
])
def test_school_results_routines_and_family_in_chinese_are_kept(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message", ["我在考虑换工作吗？", "你一般几点起床？"])
def test_a_question_is_still_no_disclosure(message):
    assert _statements(message) == []
