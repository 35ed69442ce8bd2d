"""Issue #16, Chinese: a 我们 that moves, marries or travels takes the user along; a clause after 但是 keeps the
user as its subject; how often, said with no thing of its own, stays with the clause before. Examples invented."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn


def _statements(text: str) -> list[str]:
    found = extract_candidates([Turn(seq=0, role="assistant", content="最近怎么样？"), Turn(seq=1, role="user", content=text)])
    assert all(c.quote in text for c in found)  # the quote stays the user's own words
    return [c.statement for c in found]


@pytest.mark.parametrize("said,statement", [
    ("我们下个月要去日本旅游。", "用户下个月要去日本旅游"),
    ("我们结婚五年了。", "用户结婚五年了"),
    ("我们搬到深圳了。", "用户搬到深圳了"),
    ("我们一家下周去三亚度假。", "用户下周去三亚度假"),
])
def test_a_we_that_moves_marries_or_travels_is_the_user(said, statement):
    assert statement in _statements(said)


@pytest.mark.parametrize("said", ["我们公司要搬到深圳。", "我们需要一个方案。", "我们俩去年在一起的。"])
def test_a_company_a_request_or_a_couple_alone_is_not_read_as_the_user(said):
    assert _statements(said) == []


def test_a_clause_after_but_keeps_the_user_as_its_subject():
    assert _statements("我在上海工作，但是老家在湖南。") == ["用户在上海工作", "用户老家在湖南"]


@pytest.mark.parametrize("said,statement", [
    ("我最近开始学游泳，每周去两次。", "用户最近开始学游泳，每周去两次"),
    ("我每天跑步，每周五次。", "用户每天跑步，每周五次"),
])
def test_how_often_stays_with_the_thing_it_counts(said, statement):
    assert _statements(said) == [statement]


def test_the_next_relative_of_the_same_me_is_the_users():
    assert _statements("我儿子今年五岁，女儿三岁。") == ["用户的儿子今年五岁", "用户的女儿三岁"]
    assert _statements("他儿子五岁，女儿三岁。") == []


def test_where_the_user_works_said_after_a_comma_is_kept_in_its_own_words():
    assert "用户在一家广告公司" in _statements("我是做设计的，在一家广告公司。")


@pytest.mark.parametrize("said,statements", [
    ("我是大伟，三十五岁，在深圳做程序员。", ["用户是大伟", "用户三十五岁", "用户在深圳做程序员"]),
    ("我姓张，今年六十三了，退休前是中学语文老师。", ["用户姓张", "用户今年六十三了", "用户退休前是中学语文老师"]),
    ("我叫阿浩，在杭州送外卖。", ["用户叫阿浩", "用户在杭州送外卖"]),
])
def test_an_introduction_keeps_every_clause_after_the_name(said, statements):
    assert _statements(said) == statements


def test_a_surname_question_is_no_surname():
    assert _statements("我姓什么不重要。") == []


@pytest.mark.parametrize("said,statement", [
    ("我在上海做设计，下个月搬回成都。", "用户下个月搬回成都"),
    ("搬到成都两周了，还在适应。", "用户搬到成都两周了"),
])
def test_a_move_back_or_a_move_told_without_its_me_is_read(said, statement):
    assert statement in _statements(said)


def test_a_question_about_a_move_is_no_move():
    assert _statements("搬到哪里了？") == []


def test_a_household_pet_named_later_in_the_sentence_keeps_its_name():
    assert _statements("带我家柯基去江边散步，它叫豆豆。") == ["用户家的柯基叫豆豆"]


@pytest.mark.parametrize("said", ["邻居家的狗，它叫旺财。", "我家的猫和狗都很乖，它叫豆豆。"])
def test_a_neighbours_pet_or_one_of_two_is_not_named_for_the_user(said):
    assert not [s for s in _statements(said) if s.endswith("叫豆豆") and "猫和狗" not in s or "旺财" in s]
