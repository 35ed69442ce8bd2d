"""A time said relative to the session ("I just had a baby", "on Sunday", 上周日, 今年九月, 去年) reads as a date in the
memory, counted from when it was said, and the quote still supports the dated statement."""
from datetime import datetime, timezone

import pytest

from dreaming.engine.quotes import statement_unsupported
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer

FRIDAY = datetime(2026, 11, 20, 10, tzinfo=timezone.utc)


def _statements(message: str) -> list[tuple[str, str]]:
    turns = [Turn(seq=0, role="user", content=message, created_at=FRIDAY)]
    return [(c.statement, c.quote) for c in LocalDreamer().extract(turns=turns, ctx=CallContext())]


@pytest.mark.parametrize(("message", "dated"), [
    ("I just had a baby!", "User had a baby around 20 November 2026"),
    ("We just moved to Denver.", "User's household moved to Denver around 20 November 2026"),
    ("I got a puppy on Sunday too.", "User got a puppy on 15 November 2026"),
    ("上周日我买了一只小狗。", "2026年11月15日用户买了一只小狗"),
    ("我刚买了一只小狗。", "用户2026年11月20日前后买了一只小狗"),
    ("今年九月我女儿上小学了。", "2026年9月用户的女儿上小学了"),
    ("去年三月我换了工作。", "2025年3月用户换了工作"),
    ("去年我们搬到了上海。", "2025年用户搬到了上海"),
    ("上周末我去爬山了。", "2026年11月20日的前一个周末用户去爬山了"),
])
def test_a_relative_time_is_dated_from_the_session_and_still_supported(message, dated):
    found = dict(_statements(message))
    assert dated in found, found
    assert statement_unsupported(statement=dated, quote=found[dated], message=message, context=message) is None


@pytest.mark.parametrize("message", ["I go to church on Sunday.", "I'm flying out on Sunday.",
                                     "I just wanted to check in on the garden project."])
def test_a_weekday_in_a_habit_or_a_plan_is_not_dated(message):
    assert not any("November" in s for s, _ in _statements(message))


@pytest.mark.parametrize("statement", ["2026年11月15日用户买了一只小狗", "用户2026年11月20日前后生了二胎", "2025年用户搬到了上海"])
def test_a_chinese_milestone_dated_to_the_day_is_lasting_not_the_news_of_the_day(statement):
    from dreaming.memory.scoring import is_milestone, stability

    assert is_milestone(statement) and stability(statement=statement, category="event") == 1.0


def test_a_chinese_day_out_is_still_the_news_of_the_day():
    from dreaming.memory.scoring import stability

    assert stability(statement="2026年11月15日用户去了公园", category="event") == 0.25


def test_just_dates_only_a_statement_of_what_happened():
    from dreaming.engine.dates import just_happened_en

    assert just_happened_en("User goes to the gym", quote="I just got back, I go to the gym", said_at=FRIDAY) == (
        "User goes to the gym")
    assert just_happened_en("User got a new job", quote="I just got a new job", said_at=FRIDAY) == (
        "User got a new job around 20 November 2026")
