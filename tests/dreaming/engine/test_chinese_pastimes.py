"""A pastime the user did, told in Chinese with no 我 and no 爱好: read as the habit, in the same words each time."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.quotes import statement_unsupported
from dreaming.engine.vagueness import vague_reason
from dreaming.protocol import Turn


def _found(*user_turns: str) -> dict[str, tuple[str, float]]:
    turns = [Turn(seq=i, role="user", content=t) for i, t in enumerate(user_turns)]
    return {c.statement: (c.quote, c.importance) for c in extract_candidates(turns)}


@pytest.mark.parametrize("message, habit", [
    ("还行吧，上班有点累。下班以后去图书馆借了两本小说，打算周末看。", "用户看书"),
    ("哈哈，谢谢。晚上还弹了会儿吉他，最近在练前奏。", "用户弹吉他"),
    ("周末又和老乡打了场篮球，赢了。", "用户打篮球"),
    ("今天给宝宝织了一顶小帽子，黄色的。", "用户织毛线"),
    ("睡前做了二十分钟瑜伽，放松一下。", "用户练瑜伽"),
    ("今天和老朋友去水库钓鱼，钓了三条鲫鱼。", "用户钓鱼"),
    ("嗯，跑了十公里才缓过来。", "用户跑步"),
    ("周末拿着相机去沙面拍了一下午街拍。", "用户玩摄影"),
])
def test_a_pastime_done_without_saying_i_is_read_as_the_habit_and_weighs_little(message, habit):
    found = _found(message)
    assert habit in found
    quote, importance = found[habit]
    assert quote in message and importance <= 0.2  # an inference: pending until another session tells it again
    assert statement_unsupported(statement=habit, quote=quote, message=message) is None  # the truth guard lets it by
    assert vague_reason(habit) is None


@pytest.mark.parametrize("message", [
    "老伴给做了鲫鱼汤，香得很。",  # someone else did it
    "吉他老师说我可以开始学扫弦了。",
    "医生让我少弯腰，钓鱼暂时去不了了。",  # not done
    "写字能静心。",  # an opinion, no doing
    "明天想去钓鱼。",  # a wish
    "周末可以去爬山。",  # advice
    "你周末去钓鱼了吗？",
    "他晚上弹了会儿钢琴。",
    "我儿子周末去打篮球了。",
])
def test_someone_elses_doing_a_plan_or_advice_is_no_pastime_of_the_users(message):
    habits = {"用户钓鱼", "用户做饭", "用户弹吉他", "用户练书法", "用户爬山", "用户弹钢琴", "用户打篮球"}
    assert not habits & set(_found(message))


def test_a_pastime_the_turn_already_tells_as_lasting_is_not_told_again():
    found = _found("挺忙的，不过我每天早上都会去深圳湾跑五公里。")
    assert "用户每天早上都会去深圳湾跑五公里" in found and "用户跑步" not in found


def test_the_truth_guard_does_not_let_a_habit_the_quote_does_not_show():
    assert statement_unsupported(statement="用户弹吉他", quote="晚上还弹了会儿钢琴", message="晚上还弹了会儿钢琴")


def test_an_it_the_statement_never_names_is_vague_and_a_guitar_is_no_he():
    assert vague_reason("用户喜欢它的胶片色调")
    assert vague_reason("用户弹吉他") is None and vague_reason("用户喜欢其它颜色") is None


def test_a_painter_or_a_painting_named_is_no_painting_done():
    assert "用户画画" not in _found("我学到了很多关于古代画家的画作的故事。")
    assert "用户画画" in _found("周末在家画了一幅水彩画。")
