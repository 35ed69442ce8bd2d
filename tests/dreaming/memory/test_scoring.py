"""The score formula: one place, weights from settings, a visible breakdown."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.memory.scoring import ScoreInput, score_compute, score_decision, specificity, timeliness

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


def item(**overrides):
    fields = dict(statement="User has a dog named Milo", category="fact", importance=0.8, user_initiated=True,
                  distinct_sessions=1, last_said_at=NOW - timedelta(hours=3))
    return ScoreInput(**{**fields, **overrides})


def test_the_score_is_the_weighted_mean_of_its_visible_parts():
    score, breakdown = score_compute(item=item(), now=NOW)
    parts, weights = breakdown["parts"], breakdown["weights"]
    assert score == pytest.approx(sum(parts[k] * weights[k] for k in parts) / sum(weights.values()), abs=1e-4)
    assert parts["user_initiated"] == 1.0 and parts["recurrence"] == 0.0 and parts["feedback"] == 0.5
    assert breakdown["total"] == score and breakdown["sessions"] == 1


def test_weights_come_from_settings(settings):
    before, _ = score_compute(item=item(user_initiated=False), now=NOW)
    settings.DREAM_SCORE_WEIGHTS = {**settings.DREAM_SCORE_WEIGHTS, "user_initiated": 0.0}
    after, breakdown = score_compute(item=item(user_initiated=False), now=NOW)
    assert after > before and breakdown["weights"]["user_initiated"] == 0.0


def test_a_user_raised_detailed_statement_beats_a_passing_vague_one():
    strong, _ = score_compute(item=item(), now=NOW)
    vague, _ = score_compute(item=item(statement="User likes it", user_initiated=False, importance=0.3), now=NOW)
    assert score_decision(strong) == "promote" and score_decision(vague) == "dismiss"


def test_recurrence_in_another_session_lifts_a_pending_candidate_over_the_threshold():
    passing = item(statement="User likes jazz music", user_initiated=False, importance=0.6)
    once, _ = score_compute(item=passing, now=NOW)
    twice, _ = score_compute(item=ScoreInput(**{**passing.__dict__, "distinct_sessions": 2}), now=NOW)
    assert (score_decision(once), score_decision(twice)) == ("pending", "promote")


def test_fresh_events_matter_now_and_stale_plans_less():
    fresh = timeliness(statement="User ran a marathon", category="event", last_said_at=NOW - timedelta(days=1), now=NOW)
    stale = timeliness(statement="User ran a marathon", category="event", last_said_at=NOW - timedelta(days=60), now=NOW)
    stale_plan = timeliness(statement="User plans to run a marathon next week", category="event",
                            last_said_at=NOW - timedelta(days=60), now=NOW)
    old_fact = timeliness(statement="User has a sister", category="relation", last_said_at=NOW - timedelta(days=60), now=NOW)
    assert fresh > old_fact > stale > stale_plan
    assert stale == pytest.approx(0.25, abs=0.001) and stale_plan == pytest.approx(0.125, abs=0.001)


def test_specificity_rewards_names_numbers_and_detail_in_both_languages():
    assert specificity("User has a dog named Milo") > specificity("User likes it")
    assert specificity("用户养了一只叫米洛的狗") > specificity("用户喜欢茶")


# --- a pastime the user did is not the news of the day (Chinese) ---------------------------------
def _told_today(statement: str, *, category: str = "event") -> ScoreInput:
    """A statement volunteered once, in the words light sleep gives a dated Chinese clause."""
    return item(statement=statement, category=category, importance=0.45, last_said_at=NOW - timedelta(days=3))


@pytest.mark.parametrize("statement, stability, decision", [
    *[(s, 1.0, "promote") for s in ("4月28日用户去了公园散步", "4月30日用户去爬山了", "4月28日用户又跑步了",
                                     "4月27日用户去了附近的公园慢跑了一个小时")],
    # the news of the day still waits for a second mention
    *[(s, 0.25, "pending") for s in ("4月29日用户去了一家新开的西餐厅", "5月5日用户做了一道番茄炒蛋", "5月6日用户去了书店",
                                      "4月29日用户去了一家咖啡店")],
])
def test_a_pastime_told_as_todays_news_is_remembered_the_first_night(statement, stability, decision):
    score, breakdown = score_compute(item=_told_today(statement), now=NOW)
    assert breakdown["parts"]["stability"] == stability
    assert score_decision(score) == decision


def test_a_feeling_about_a_pastime_stays_a_feeling():
    _, breakdown = score_compute(item=_told_today("用户跑步的时候很焦虑", category="emotion"), now=NOW)
    assert breakdown["parts"]["stability"] == 0.0


@pytest.mark.parametrize("statement", ["用户经常去散步", "用户每天傍晚散步", "用户平时喜欢写作", "用户一直都喜欢写作"])
def test_a_habit_in_chinese_is_lasting(statement):
    _, breakdown = score_compute(item=_told_today(statement, category="fact"), now=NOW)
    assert breakdown["parts"]["stability"] == 1.0


@pytest.mark.parametrize("statement, word", [("用户非常享受这种感觉", "这种感觉"), ("用户就会陷入其中", "其中"),
                                             ("用户听说了这种方法", "这种方法")])
def test_a_chinese_statement_ending_on_what_it_does_not_name_is_never_promoted(statement, word):
    score, breakdown = score_compute(item=item(statement=statement), now=NOW)
    assert word in breakdown["vague"] and score_decision(score) != "promote"


# --- specificity reads the statement's content, not its fillers ---------------------------------
def test_the_do_of_emphasis_and_a_number_word_read_as_what_they_say():
    assert specificity("User does have two huskies") == specificity("User has two huskies")
    # a count in words is a number, whatever its case, as precise as digits
    assert specificity("User has Two huskies") == specificity("User has two huskies") == specificity("User has 2 huskies")


def test_a_count_in_words_keeps_a_rewording_promoted():
    # "I do have two huskies": worded "User has two huskies", it must not lose what "does" used to give it
    for statement in ("User has two huskies", "User has Two huskies", "User has 2 huskies"):
        score, _ = score_compute(item=item(statement=statement, importance=0.5, user_initiated=False, initiative=0.6),
                                 now=NOW)
        assert score_decision(score) == "promote"


def test_the_do_of_emphasis_does_not_make_a_weak_statement_specific():
    assert specificity("User does go there") == specificity("User goes there")
    assert specificity("User did try") < specificity("User tried paddle boarding")


def test_the_user_named_mid_statement_is_not_a_name():
    assert specificity("The script User sent in has been on their mind") == specificity(
        "The script they sent in has been on their mind")


# --- where a Chinese user is from, and their job, last ---------------------------------------------
@pytest.mark.parametrize("statement", ["用户是四川人", "用户是东北人", "用户是上海人", "用户是程序员", "用户是一名护士"])
def test_a_chinese_origin_or_job_said_as_what_the_user_is_is_lasting(statement):
    _, breakdown = score_compute(item=_told_today(statement, category="fact"), now=NOW)
    assert breakdown["parts"]["stability"] == 1.0


@pytest.mark.parametrize("statement", ["用户是老实人", "用户是外人", "用户是新来的人"])
def test_what_the_user_is_like_is_no_origin(statement):
    _, breakdown = score_compute(item=_told_today(statement, category="fact"), now=NOW)
    assert breakdown["parts"]["stability"] == 0.5


def test_a_chinese_origin_told_beside_an_answer_is_promoted_the_first_night():
    # "你平时喜欢吃什么口味？" → "我是四川人，喜欢吃辣": the origin is a fact of the user's life, told in their words
    from dreaming.engine.life_answers import answers_about_own_life
    assert answers_about_own_life(quote="我是四川人", statement="用户是四川人")
    score, _ = score_compute(item=item(statement="用户是四川人", importance=0.65, initiative=1.0), now=NOW)
    assert score_decision(score) == "promote"


@pytest.mark.parametrize("statement, vague", [
    ("User's boyfriend Miguel is moving in with them next month", False),  # "with me": the user
    ("User's sister lives with them", False),
    ("User's kids love them", True),  # "my kids love them": things it does not name
    ("User went with them", True),
    ("用户还在考虑", True), ("用户决定了", True), ("用户还在犹豫", True),
    ("用户在考虑换工作", False), ("用户决定下个月搬去杭州", False),
])
def test_them_after_a_preposition_is_the_user_and_a_bare_decision_is_vague(statement, vague):
    from dreaming.engine.vagueness import vague_reason
    assert bool(vague_reason(statement)) is vague


def test_a_spouse_who_died_last_year_is_a_milestone_kept_the_first_night():
    # "我老伴去年走了": dated last year, it is no news of the day but part of the user's story
    said = item(statement="用户老伴2025年走了", category="event", importance=0.55, last_said_at=NOW - timedelta(days=3))
    score, breakdown = score_compute(item=said, now=NOW)
    assert breakdown["parts"]["stability"] == 1.0 and score_decision(score) == "promote"


# --- a state of life or a change for good is lasting (helper h17's invented users) -------------------
@pytest.mark.parametrize("statement", ["User is retired", "User has given up knitting", "User is no longer vegetarian",
                                       "User is training for a half marathon in march", "User is widowed"])
def test_a_state_of_life_or_a_change_for_good_is_lasting(statement):
    told_once = item(statement=statement, category="fact", importance=0.55, last_said_at=NOW - timedelta(days=1))
    score, breakdown = score_compute(item=told_once, now=NOW)
    assert breakdown["parts"]["stability"] == 1.0
    assert score_decision(score) == "promote"
