"""What invented users said in stop 34's end-to-end runs, read as they meant it (EN and ZH)."""
import pytest

from dreaming.engine.quotes import quote_in_text
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(message: str) -> list[str]:
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize("message, statement", [
    # boys and girls are counted kin too, and what is said of them all after the list is no member
    ("We have two boys, Eli is 9 and Sam is 6, both picky eaters.", "User has two boys: Eli (9) and Sam (6)"),
    ("I have two girls, Mia is 7 and Zoe is 4 - they keep me busy", "User has two girls: Mia (7) and Zoe (4)"),
    # a couple's children are the user's, not the household's
    ("We have two kids.", "User has two kids"),
    ("We have a baby girl.", "User has a baby girl"),
])
def test_a_couples_children_are_the_users_with_their_names_and_ages(message, statement):
    assert statement in _statements(message)


def test_what_a_household_owns_stays_the_households():
    assert "User's household has two dogs" in _statements("We have two dogs.")


@pytest.mark.parametrize("message, statement", [
    ("She's excited, she found a job there. We're also engaged now :)", "User is engaged"),
    ("We are married now.", "User is married"),
    ("We're officially engaged!", "User is engaged"),
])
def test_a_couple_that_is_now_engaged_or_married_is_the_users_own(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message, statement", [
    ("my cricket team won the league on Sunday btw, I'm the captain", "User is the captain of their cricket team"),
    ("My band played a gig last night, I'm the lead singer", "User is the lead singer of their band"),
])
def test_a_role_takes_the_group_named_in_the_clause_before(message, statement):
    found = _statements(message)
    assert statement in found and "User is the captain" not in found


def test_a_role_with_no_group_before_stays_as_said():
    assert "User is the drummer" in _statements("I play in a band with friends. I'm the drummer.")


def test_no_children_said_between_two_clauses_keeps_the_subject_for_the_next():
    found = _statements("我们结婚三年了，还没有孩子，养了一只布偶猫叫奶茶。")
    assert {"用户结婚三年了", "用户还没有孩子", "用户养了一只布偶猫叫奶茶"} <= set(found)


def test_a_clause_saying_the_user_has_no_time_is_no_continuation():
    assert "用户没有时间" not in _statements("我结婚三年了，没有时间，养了一只猫。")


@pytest.mark.parametrize("message, statement", [
    ("我们打算明年春天要个孩子", "用户打算明年春天要个孩子"),
    ("我们计划年底搬到杭州", "用户计划年底搬到杭州"),
])
def test_a_couple_planning_a_child_or_a_move_is_the_user(message, statement):
    assert statement in _statements(message)


def test_wanting_an_answer_is_no_child():
    assert _statements("我们要个说法") == []


def _answered(question: str, message: str) -> list[str]:
    turns = [Turn(seq=0, role="assistant", content=question), Turn(seq=1, role="user", content=message)]
    found = LocalDreamer().extract(turns=turns, ctx=CallContext())
    assert all(quote_in_text(quote=c.quote, text=message) for c in found)
    return [c.statement for c in found]


def test_before_that_after_a_comma_starts_a_new_sentence():
    found = _answered("How long have you been freelancing?",
                      "About 2 years, before that I was a graphic designer at an ad agency in Madrid.")
    assert "User was a graphic designer at an ad agency in Madrid" in found
    assert not any(s.startswith("About 2 years") for s in found)


def test_a_dropped_subject_after_also_is_the_users_in_a_later_sentence():
    found = _answered("How is school?", "going to office hours twice a week now. also got a part time job at the "
                                        "campus library")
    assert "User got a part time job at the campus library" in found


def test_a_noun_first_is_no_dropped_subject():
    found = _answered("How are you?", "Work is fine. Joined a book club last week.")
    assert "User joined a book club last week" in found
    assert not any("works is" in s for s in found)


@pytest.mark.parametrize("message, statement", [
    ("每天早上去公园打太极拳，下午在家练书法。", "用户下午在家练书法"),
    ("我老伴去年走了，现在一个人住。", "用户现在一个人住"),
    ("我今年六十八岁了，退休在家，想学学用智能手机", "用户退休在家"),
    ("我在上海工作，晚上练瑜伽", "用户晚上练瑜伽"),
])
def test_a_chinese_routine_or_living_alone_continues_the_clause_before(message, statement):
    found = _statements(message)
    assert statement in found
    assert not any(s in ("用户练书法", "用户练瑜伽") for s in found)  # the habit is told: no weak pastime beside it


@pytest.mark.parametrize("message, statement", [
    ("我申请了香港大学的研究生", "用户申请了香港大学的研究生"),
    ("我被录取了！", "用户被录取了"),
])
def test_a_chinese_application_and_its_outcome_are_read(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message, statement", [
    ("Guess what, we're engaged!", "User is engaged"),
    ("Big news: we're engaged now :)", "User is engaged"),
    ("Update: I moved to Denver", "User moved to Denver"),
])
def test_news_announced_first_is_read_after_its_announcement(message, statement):
    assert statement in _statements(message)


@pytest.mark.parametrize("message, statement", [
    ("我养了一只柯基叫豆豆，三岁了。", "用户的柯基豆豆三岁了"),
    ("我有一个儿子，三岁了。", "用户的儿子三岁了"),
])
def test_an_age_after_a_pet_or_child_is_theirs_not_the_users(message, statement):
    from dreaming.engine.quotes import statement_unsupported
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    aged = [c for c in found if c.statement == statement]
    assert aged and statement_unsupported(statement=statement, quote=aged[0].quote, message=message) is None
    assert "用户三岁了" not in [c.statement for c in found]


def test_an_adults_age_after_a_pet_stays_the_users():
    assert "用户今年三十岁了" in _statements("我养了一只猫，今年三十岁了")


def test_i_ll_without_its_apostrophe_is_i_will():
    from dreaming.engine.third_person import to_third_person_en
    assert to_third_person_en("I ll take mine to softball practice and play fetch") == \
        "User will take theirs to softball practice and play fetch"
