"""How often a habit is done is one fact in any language, and another frequency is a change; a detail after a
Chinese comma stays with its clause; preparing for an exam is no plan; "moved here" names no place."""
import pytest

from dreaming.engine import slots
from dreaming.engine.compare import compare_statements
from dreaming.engine.dates import is_plan
from dreaming.engine.frequency import frequency_of
from dreaming.protocol import CallContext, MemoryRef, Turn
from dreaming.providers.local import LocalDreamer


@pytest.mark.parametrize("text, often", [
    ("User plays badminton twice a week", "2/week"),
    ("用户每周打两次羽毛球", "2/week"),
    ("User runs 5k three times a week", "3/week"),
    ("User goes to the gym 4 times per week", "4/week"),
    ("用户一个月去三次健身房", "3/month"),
    ("User reads every day", None),
])
def test_a_frequency_reads_the_same_in_both_languages(text, often):
    assert frequency_of(text) == often


def _compare(statement: str, memory: str):
    return compare_statements([statement], [MemoryRef(id=1, statement=memory, category="fact")])[0]


def test_the_same_habit_as_often_in_another_language_is_one_memory():
    assert slots.same_thing("User plays badminton twice a week", "用户每周打两次羽毛球")
    assert _compare("User plays badminton twice a week", "用户每周打两次羽毛球").relation == "reinforces"


@pytest.mark.parametrize("statement", ["用户现在每周打三次羽毛球了", "User plays badminton three times a week"])
def test_the_same_habit_at_another_frequency_is_a_change(statement):
    result = _compare(statement, "用户每周打两次羽毛球")
    assert result.relation == "contradicts" and "2/week" in result.reason and "3/week" in result.reason


@pytest.mark.parametrize("statement", ["User plays tennis three times a week", "User runs 5k three times a week"])
def test_another_habit_at_another_frequency_is_not_a_change(statement):
    assert _compare(statement, "用户每周打两次羽毛球").relation == "new"


def test_a_feeling_after_moving_here_does_not_move_the_user():
    assert _compare("用户搬到这里以后觉得很孤单", "用户现在住在上海").relation == "new"
    assert _compare("用户搬到了杭州", "用户现在住在上海").relation == "contradicts"


def _statements(message: str) -> list[str]:
    return [c.statement for c in LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())]


@pytest.mark.parametrize("message, statement", [
    ("我正在准备考研，目标是复旦。", "用户正在准备考研，目标是复旦"),
    ("我在准备雅思，需要考到7分。", "用户在准备雅思，需要考到7分"),
    ("我是北京大学大二的学生，学的是计算机。", "用户是北京大学大二的学生，学的是计算机"),
])
def test_a_detail_after_a_chinese_comma_stays_with_its_clause(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("statement, plan", [
    ("用户在准备雅思", False),
    ("用户正在准备考研", False),
    ("用户准备下个月去东京", True),
    ("用户在准备搬家", True),
])
def test_preparing_for_an_exam_is_no_plan(statement, plan):
    assert is_plan(statement) is plan


def test_a_habit_no_lexicon_word_names_changes_with_its_frequency():
    result = _compare("User runs 5k four times a week now", "User runs 5k twice a week")
    assert result.relation == "contradicts" and "4/week" in result.reason
    assert _compare("User runs a bakery", "User runs 5k twice a week").relation == "new"


def test_a_hobby_said_by_its_own_verb_is_one_memory_across_languages():
    assert _compare("User swims twice a week", "用户每周游泳两次").relation == "reinforces"
    assert _compare("User swims in the sea every summer", "用户每周游泳两次").relation == "new"


@pytest.mark.parametrize("message, statement", [
    ("I play tennis on Sundays, I'm pretty average.", "User plays tennis on Sundays, and is pretty average at it"),
    ("I'm preparing for IELTS, I need a 7.", "User is preparing for IELTS, and needs a 7"),
    ("I play chess online, but I'm not very good.", "User plays chess online, but is not very good at it"),
])
def test_a_level_or_a_target_after_an_english_comma_stays_with_its_clause(message, statement):
    found = _statements(message)
    assert statement in found
    assert not [s for s in found if s in ("User is average", "User needs a 7", "User plays tennis on Sundays")]


def test_how_the_user_is_today_is_no_level():
    assert not [s for s in _statements("I love my job, I'm good.") if "good at it" in s]
