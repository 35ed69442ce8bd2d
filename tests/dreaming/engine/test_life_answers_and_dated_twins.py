"""Issue #16: a short answer to the assistant's question about the user's life weighs as if volunteered (an
echo of the assistant stays weak), and one fact said in two languages, once with a worked-out date, is one."""
import pytest

from dreaming.engine.compare import MemoryRef, compare_statements
from dreaming.engine.life_answers import answers_about_own_life
from dreaming.engine.slots import same_thing
from dreaming.memory.scoring import ANSWER_CREDIT, initiative


@pytest.mark.parametrize("quote,statement", [
    ("结了，去年结的", "用户结婚了"),
    ("Yes", "User is married"),
    ("Yes, two", "User has kids"),
    ("I am", "User is a student"),
    ("在一家银行上班", "用户在一家银行工作"),
    ("Berlin", "User lives in Berlin"),
    ("不吃", "用户不吃香菜"),
])
def test_an_answer_about_the_users_life_counts_as_told(quote, statement):
    assert answers_about_own_life(quote=quote, statement=statement)
    assert initiative(user_initiated=False, quote=quote, statement=statement) == 1.0


@pytest.mark.parametrize("quote,statement", [
    ("Me too!", "User loves hiking"),
    ("Me too", "User is married"),  # the assistant's own news, echoed
    ("我也是", "用户结婚了"),
    ("tokyo maybe", "User moved to Tokyo"),  # a hedge
    ("I love them", "User loves their kids"),  # a taste, whatever its object
])
def test_an_echo_or_a_hedge_stays_weak(quote, statement):
    assert initiative(user_initiated=False, quote=quote, statement=statement) == 0.0


def test_a_taste_told_in_own_words_keeps_the_answer_credit():
    assert initiative(user_initiated=False, quote="我喜欢爬山和游泳", statement="用户喜欢爬山和游泳") == ANSWER_CREDIT


@pytest.mark.parametrize("a,b", [
    ("用户现在搬到上海了", "User moved to Shanghai in October 2026"),
    ("用户养了一只猫", "User adopted a cat in May 2026"),
    ("用户有一只狗", "User has a dog"),
])
def test_a_lasting_fact_dated_on_one_side_only_is_the_same_thing(a, b):
    assert same_thing(a, b) and same_thing(b, a)


@pytest.mark.parametrize("a,b", [
    ("User went to Tokyo in May 2026", "User went to Tokyo in March 2026"),  # two trips
    ("User went to Tokyo in May 2026", "User went to Tokyo"),  # perhaps another trip
    ("用户有两只猫", "User has a cat"),
])
def test_different_dates_or_counts_stay_apart(a, b):
    assert not same_thing(a, b)


def test_the_dated_wording_is_kept_whichever_comes_second():
    dated, undated = "User moved to Shanghai in October 2026", "用户现在搬到上海了"
    [later_dated] = compare_statements([dated], [MemoryRef(id=1, statement=undated, category="fact")])
    assert (later_dated.relation, later_dated.memory_id, later_dated.statement) == ("adds_detail", 1, dated)
    [later_undated] = compare_statements([undated], [MemoryRef(id=1, statement=dated, category="event")])
    assert (later_undated.relation, later_undated.memory_id) == ("reinforces", 1)
