"""Issue #16, Chinese: a 他 / 她 opening a clause stands for the one relative of the user named in the clause (or the
sentence) just before — never across a second person, a contradicting gender, a question, a hypothetical, a guess or
a pet's 它. Examples invented."""
import pytest

from dreaming.engine.chinese import ZH_HYPOTHETICAL_RE
from dreaming.engine.extract import extract_candidates
from dreaming.engine.quotes import statement_unsupported
from dreaming.protocol import Turn


def _found(text: str) -> list:
    found = extract_candidates([Turn(seq=0, role="assistant", content="最近怎么样？"), Turn(seq=1, role="user", content=text)])
    for c in found:  # the quote stays the user's own words and carries its statement
        assert statement_unsupported(statement=c.statement, quote=c.quote, message=text) is None, c
    return found


def _statements(text: str) -> list[str]:
    return [c.statement for c in _found(text)]


@pytest.mark.parametrize("said,statement,quote", [
    ("主要是想跟孙子视频，他在美国读书", "用户的孙子在美国读书", "孙子视频，他在美国读书"),
    ("我老公是上海人，他口味偏甜", "用户的老公口味偏甜", "我老公是上海人，他口味偏甜"),
    ("我有个弟弟，他在读大学", "用户的弟弟在读大学", "我有个弟弟，他在读大学"),
    ("我有个弟弟。他在读大学。", "用户的弟弟在读大学", "我有个弟弟。他在读大学"),
    ("我有个朋友，她在做设计。", "用户的朋友在做设计", "我有个朋友，她在做设计"),
    ("我女儿是老师，她在北京工作。", "用户的女儿在北京工作", "我女儿是老师，她在北京工作"),
    ("我有个表妹，她在英国留学", "用户的表妹在英国留学", "我有个表妹，她在英国留学"),
    ("我妹妹结婚了，她老公是医生", "用户的妹妹的老公是医生", "我妹妹结婚了，她老公是医生"),  # her husband
])
def test_a_he_or_she_after_one_relative_is_that_relative(said, statement, quote):
    assert (quote, statement) in [(c.quote, c.statement) for c in _found(said)]


def test_what_the_relative_asks_keeps_only_what_is_hers():
    # the 跟她住 is the daughter again: the statement stops before it
    said = _statements("我女儿在杭州当医生，她让我搬过去跟她住")
    assert "用户的女儿让用户搬过去" in said
    assert not any("她" in s for s in said)


def test_a_second_he_goes_on_with_the_same_relative():
    assert "用户的弟弟喜欢打篮球" in _statements("我有个弟弟，他在读大学，他喜欢打篮球。")


@pytest.mark.parametrize("said", [
    "我女儿在杭州，他在读大学。",  # 他 after a daughter: someone else
    "我老公在上海，她在读大学。",  # 她 after a husband
    "我妹妹和我同事都在北京，她在读大学。",  # two people named
    "我朋友的儿子，他在美国读书。",  # the friend's son: two people, and not the user's
    "我有个弟弟，他在读大学吗？",  # a question
    "如果我有个儿子，他会在美国读书。",  # a hypothetical
    "我给儿子买了礼物，他应该会喜欢。",  # a guess
    "我跟我儿子说了，他也同意。",  # agrees to what?
    "我孙子，他很可爱。",  # a passing word of praise
    "我的老师是一名摄影师，他会教我们构图。",  # 我们: nobody a memory could name
    "墨西哥很好玩，他在那里工作。",  # 哥 of a place is nobody
])
def test_the_pronoun_stays_unread_without_one_fitting_relative(said):
    assert not any(s.startswith(("用户的女儿在读", "用户的老公在读", "用户的妹妹在读", "用户的同事在读", "用户的儿子",
                                 "用户的弟弟在读", "用户的孙子", "用户的朋友在美国", "用户的哥", "用户的老师会"))
                   for s in _statements(said))


def test_a_pet_named_with_it_is_left_to_the_pet_rule():
    assert not any("胖" in s for s in _statements("我家猫，它很胖。"))


def test_a_name_after_she_stays_with_the_clause_that_names_the_sister():
    assert _statements("我有个妹妹，她叫小美") == ["用户有个妹妹，她叫小美"]


@pytest.mark.parametrize("said", ["主要是想跟孙子视频", "只要是周末我都去", "需要是原件"])
def test_a_yao_shi_inside_another_word_is_no_if(said):
    assert ZH_HYPOTHETICAL_RE.search(said) is None
    assert ZH_HYPOTHETICAL_RE.search("要是下雨我就不去")


def test_a_place_pointed_back_to_stays_unread():
    assert not any("那边" in s for s in _statements("我儿子在加拿大工作，他在那边买了房。"))
