"""Relative times made absolute with the date the user said them: "yesterday" → "on 7 May 2023".

A memory outlives the conversation it came from: "User went to a support group yesterday" read a month
later says nothing about when. The statement (never the quote, which stays the user's words) gets the
date worked out from the message time: yesterday / last night → "on 7 May 2023", last week → "in the
week before 8 May 2023", last Friday → "on 5 May 2023", last month → "in April 2023", three days ago →
"on 5 May 2023", two weeks ago → "two weeks before 8 May 2023"; Chinese 昨天 → "5月7日", 上个月 →
"2023年4月". Plans keep their words ("next week", "tomorrow", "this weekend"; see _RELATIVE_EN_RE): weekly
consolidation dates them once outdated; a month named in a plan gets the year it falls in ("moving to Osaka
in March" said in May 2023 → "in March 2024"). Without a message time nothing changes.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}

# Only what already happened (or is happening): a plan keeps its "next week" / "tomorrow" / "this weekend",
# which is how deep sleep knows it is a plan (scoring.PLAN_WORDS) and weekly dates it once it is outdated.
_RELATIVE_EN_RE = re.compile(
    r"\b(?:(?P<dby>the day before yesterday)|(?P<yesterday>yesterday|last night)"
    r"|(?P<today>earlier today|today|this morning|this afternoon)"
    r"|(?P<weekend>last weekend)|(?P<week>(?:last|this) week)|(?P<month>(?:last|this) month)"
    r"|(?P<year>(?:last|this) year)"
    r"|last (?P<weekday>mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?"
    r"|(?P<count>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|a couple|couple of|"
    r"several)\s+(?P<unit>day|week|weekend|month|year)s?\s+ago)\b",
    re.IGNORECASE,
)

# What this module writes, so scoring can tell a worked-out date from a detail the user gave.
DATE_PHRASE_RE = re.compile(
    r"\b(?:(?:on|in|around) )?(?:the (?:week|weekend) (?:before|after|of) )?\d{1,2} (?:" + "|".join(MONTHS)
    + r") \d{4}\b|\bin (?:" + "|".join(MONTHS) + r") \d{4}\b"
    r"|\b(?:\d+|a few|a couple of|several|one|two|three|four|five|six|seven|eight|nine|ten) (?:days|weeks|weekends|"
    r"months|years|day|week|weekend|month|year) before \d{1,2} (?:" + "|".join(MONTHS) + r") \d{4}\b"
    r"|\d{4}年\d{1,2}月(?:\d{1,2}日)?(?:的前一周|的前一个周末|的后一周|那周|前后)?|\d{1,2}月\d{1,2}日(?:前后)?|\d{4}年(?!\d)",
)
DAY_PRECISE_RE = re.compile(r"\bon \d{1,2} (?:" + "|".join(MONTHS) + r") \d{4}\b|\d{1,2}月\d{1,2}日")


def day_text(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def _month_shift(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _english(m: re.Match, day: date) -> str:
    word = m.group(0).lower()
    if m.group("dby"):
        return f"on {day_text(day - timedelta(days=2))}"
    if m.group("yesterday"):
        return f"on {day_text(day - timedelta(days=1))}"
    if m.group("today"):
        return f"on {day_text(day)}"
    if m.group("weekend") or m.group("week"):
        unit = "weekend" if m.group("weekend") else "week"
        relation = {"last": "before", "this": "of"}[word.split()[0]]
        return f"{'on' if unit == 'weekend' else 'in'} the {unit} {relation} {day_text(day)}"
    if m.group("month"):
        shifted = _month_shift(day, {"last": -1, "this": 0}[word.split()[0]])
        return f"in {MONTHS[shifted.month - 1]} {shifted.year}"
    if m.group("year"):
        return f"in {day.year + {'last': -1, 'this': 0}[word.split()[0]]}"
    if m.group("weekday"):
        back = (day.weekday() - _WEEKDAYS[m.group("weekday").lower()[:3]]) % 7 or 7
        return f"on {day_text(day - timedelta(days=back))}"
    count, unit = m.group("count").lower(), m.group("unit").lower()
    number = int(count) if count.isdigit() else _NUMBERS.get(count)
    if unit == "day" and number:
        return f"on {day_text(day - timedelta(days=number))}"
    plural = "" if number == 1 else "s"
    return f"{count} {unit}{plural} before {day_text(day)}"


_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_ZH_MONTHS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11,
              "十二": 12}


def _zh_day(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _zh_last_weekday(m: re.Match, day: date) -> str:
    """上周日 said on Friday 20 November → Sunday 15 November: the named day of the week before this one."""
    monday_before = day - timedelta(days=day.weekday() + 7)
    return _zh_day(monday_before + timedelta(days=_ZH_WEEKDAYS[m.group("wd")]))


def _zh_month(m: re.Match, day: date) -> str:
    """今年九月 → 2026年9月, 去年三月 → 2025年3月."""
    month = m.group("mon")
    number = int(month) if month.isdigit() else _ZH_MONTHS[month]
    return f"{day.year - (m.group('y') == '去')}年{number}月"


_RELATIVE_ZH = (
    (re.compile(r"上(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"), _zh_last_weekday),
    (re.compile(r"(?P<y>[今去])年(?P<mon>十[一二]?|[一二三四五六七八九]|1[0-2]|[1-9])月(?:份)?"), _zh_month),
    # 刚买了 / 刚刚搬家: "just" is the day it was said (not 刚好 "exactly", 刚才 is that day too)
    (re.compile(r"(?:刚刚|刚才|刚)(?!好|刚)(?=[\u4e00-\u9fff])"), lambda _m, d: f"{_zh_day(d)}前后"),
    (re.compile(r"前天"), lambda _m, d: f"{(d - timedelta(days=2)).month}月{(d - timedelta(days=2)).day}日"),
    (re.compile(r"昨天|昨晚"), lambda _m, d: f"{(d - timedelta(days=1)).month}月{(d - timedelta(days=1)).day}日"),
    (re.compile(r"今天"), lambda _m, d: f"{d.month}月{d.day}日"),
    (re.compile(r"上(?:个)?(?:周|星期|礼拜)末"), lambda _m, d: f"{d.year}年{d.month}月{d.day}日的前一个周末"),
    (re.compile(r"上(?:个)?(?:周|星期|礼拜)"), lambda _m, d: f"{d.year}年{d.month}月{d.day}日的前一周"),
    (re.compile(r"上个月"), lambda _m, d: f"{_month_shift(d, -1).year}年{_month_shift(d, -1).month}月"),
    (re.compile(r"这个月|本月"), lambda _m, d: f"{d.year}年{d.month}月"),
    (re.compile(r"去年"), lambda _m, d: f"{d.year - 1}年"),
)


# A month named in a plan ("moving to Osaka in March") is the next one of that name.
_MONTH_EN_RE = re.compile(r"\bin (?P<m>" + "|".join(MONTHS) + r")\b(?!,? \d)")
# A statement about what the user is going to do: "is moving", "will start", "going to", "plans to".
_PLANNED_EN_RE = re.compile(r"\b(?:is|are|am)\s+(?:\w+\s+)?\w+ing\b|\bwill\b|\bgoing to\b|\bplan|\bnext\b", re.I)


def _planned_month(m: re.Match, day: date) -> str:
    month = MONTHS.index(m.group("m")) + 1
    return f"{m.group(0)} {day.year if month >= day.month else day.year + 1}"


# "User got a puppy on Sunday": a weekday with no "last" in a statement of what happened is the one before
# the day it was said ("User goes to church on Sunday" is a habit, "User is flying out on Sunday" a plan).
_ON_WEEKDAY_EN_RE = re.compile(r"\bon (?P<weekday>mon|tue|wed|thu|fri|sat|sun)(?:day|nesday|sday|rsday|urday)\b", re.I)
_PAST_EN_RE = re.compile(
    r"^(?:User(?:'s [\w ]+?)?|[A-Z][a-z]+) (?:just |finally |also |recently )?(?:\w+ed|got|had|went|was|were|did|made|took|saw|met|"
    r"bought|came|gave|found|left|ran|won|lost|began|brought|ate|drove|flew|wrote|sold|told|became|held|kept|spent|"
    r"threw|caught|fell|broke|built|sent|paid|heard|felt|chose|swam|sang|rode|wore|grew|drew|taught|thought)\b"
)
# "I just had a baby" → "User had a baby": the "just" the statement drops is the day it was said.
# Not "I just wanted to check in": "just" softens a wish or a thought, it dates nothing.
_JUST_EN_RE = re.compile(
    r"\b(?:I|we|We|[A-Z][a-z]+)(?:'ve| have| has)? just (?!(?:wanted|needed|wished|hoped|wondered|thought|felt|figured|"
    r"decided)\b)(?:\w+ed|got|had|went|moved|bought|became|began|made|took|met|found|won|lost|left|gave|came|turned|"
    r"finished|started)\b"
)


# What the user "just" did that a date belongs to: a turn of their life (a baby, a move, a pet, a job, a home, an age).
_JUST_LIFE_EVENT_RE = re.compile(
    r"^(?:User(?:'s [\w ]+?)?|[A-Z][a-z]+) (?:had (?:a|their|our) (?:baby|son|daughter|twins|first)|gave birth|moved|"
    r"relocated|adopted|got (?:married|engaged|divorced|hired|promoted|(?:a|an|their) (?:new |first )?(?:job|puppy|"
    r"dog|cat|kitten|house|home|car|apartment|promotion|degree))|bought (?:a|an|their) (?:first |new )?(?:house|"
    r"home|car|apartment|condo|flat)|graduated|retired|was promoted|started (?:a|an|their) (?:new )?(?:job|"
    r"position|role|business)|lost (?:their|a|the) job|turned \w+)\b"
)


def past_weekday_en(statement: str, day: date) -> str:
    if is_plan(statement) or not _PAST_EN_RE.match(statement):
        return statement
    def back(m: re.Match) -> str:
        days = (day.weekday() - _WEEKDAYS[m.group("weekday").lower()[:3]]) % 7 or 7
        return f"on {day_text(day - timedelta(days=days))}"
    return _ON_WEEKDAY_EN_RE.sub(back, statement)


def just_happened_en(statement: str, *, quote: str, said_at: datetime | None) -> str:
    """The statement of a quote that says it "just" happened, dated around the day it was said."""
    if said_at is None or not _JUST_EN_RE.search(quote) or DATE_PHRASE_RE.search(statement) or is_plan(statement):
        return statement
    if not _JUST_LIFE_EVENT_RE.match(statement):
        # "I just got back from the gym, I go every day" → "User goes to the gym": a habit; "I just watched a film":
        # the news of the day, which a date only lengthens (LoCoMo tuning lost two questions to it)
        return statement
    return f"{statement.rstrip(' .!')} around {day_text(said_at.date())}"


def time_phrase_en(lead: str) -> str | None:
    """The time said right before a clause ("Yep. Last Friday, " → "Last Friday"); a time further back
    ("I went shopping yesterday and found out ") belongs to another clause."""
    m = _RELATIVE_EN_RE.search(lead)
    if not m or lead[m.end():].strip(" ,.;:!-–—") or len(re.findall(r"\w+", lead[: m.start()])) > 2:
        return None
    return m.group(0)


# A plan's time said before the "I" ("Next month I'm having an art show"): kept in the statement as said, which is
# how deep sleep knows it is a plan (dreaming.memory.scoring.PLAN_WORDS).
FUTURE_LEAD_RE = re.compile(
    r"\b(?:next (?:week|weekend|month|year|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|this (?:coming )?(?:weekend|summer|winter|spring|fall|autumn|friday|saturday|sunday)|"
    r"tomorrow|tonight|later today|soon)\b",
    re.IGNORECASE,
)


def plan_phrase_en(lead: str) -> str | None:
    """A plan's time said right before a clause ("Yay! Next month " → "next month"), kept as said."""
    matches = list(FUTURE_LEAD_RE.finditer(lead))
    m = matches[-1] if matches else None
    if not m or lead[m.end():].strip(" ,.;:!-–—") or len(re.findall(r"\w+", lead[: m.start()])) > 2:
        return None
    return m.group(0).lower()


def absolute_dates(statement: str, *, said_at: datetime | None, chinese: bool = False) -> str:
    """The statement with its relative times replaced by dates counted from `said_at`."""
    if said_at is None:
        return statement
    day = said_at.date()
    if chinese:
        for pattern, render in _RELATIVE_ZH:
            statement = pattern.sub(lambda m: render(m, day), statement)
        return statement
    statement = past_weekday_en(_RELATIVE_EN_RE.sub(lambda m: _english(m, day), statement), day)
    if _PLANNED_EN_RE.search(statement):
        statement = _MONTH_EN_RE.sub(lambda m: _planned_month(m, day), statement)
    return statement


def with_date(statement: str, *, lead: str, said_at: datetime | None) -> str:
    """The statement with its times made absolute; a time said just before the quote ("Last Friday I
    went to a council meeting" → "User went to a council meeting on 5 May 2023") is added to it."""
    plan = plan_phrase_en(lead)
    if plan:
        # "Next month I'm having an art show" → "User is having an art show next month", message time or not
        return statement if re.search(rf"\b{plan}\b", statement, re.I) else f"{statement.rstrip(' .!')} {plan}"
    if said_at is None:
        return statement
    resolved = absolute_dates(statement, said_at=said_at)
    if resolved != statement or DATE_PHRASE_RE.search(statement):
        return resolved
    phrase = time_phrase_en(lead)
    if not phrase:
        return statement
    return f"{statement.rstrip(' .!')} {absolute_dates(phrase.lower(), said_at=said_at)}"


# "plans to / will / next week / 打算 / 下周": a statement about the future that goes stale.
PLAN_WORDS = re.compile(
    # not "started going to the gym" (a habit) nor "will always remember" (a memory, not a plan)
    r"\b(plan(s|ning|ned)? to|will(?! (?:always|never) (?:remember|forget|cherish|treasure|love))|"
    r"(?<!started )(?<!keeps )(?<!kept )(?<!been )(?<!stopped )going to|intends? to|next (week|month|year|weekend|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday)|tomorrow|soon|this weekend|upcoming|"
    # "User is moving to Manchester in november": a move told in the present is one to come (slots' "plan" kind)
    r"(?:is|are) moving (?:to|into|in with|out|back|abroad|house))\b"
    # "在准备雅思" is studying for an exam now, not a plan; "准备去东京" / "正在准备搬家" are plans
    r"|打算|计划|(?<!在)准备|在准备(?:去|要|搬|出发|出国|结婚)|将要|下周|下个月|明天|明年|下星期|周末要|即将",
    re.IGNORECASE,
)


def is_plan(statement: str) -> bool:
    return bool(PLAN_WORDS.search(statement))

