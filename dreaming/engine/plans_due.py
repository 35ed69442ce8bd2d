"""A plan whose time has come: when its own words say it is due, and the job a job plan becomes.

"User is starting at Google next month as a designer" said on 1 September 2026 is due on 1 October 2026; until
then it is a plan, not something that failed to happen. Once due, a plan to start a job has become the job:
"User started working at Google as a designer in October 2026", which replaces the job the user had (weekly
consolidation: dreaming.pipeline.plans). 用户下个月去一家互联网公司做财务 → 用户2026年9月起在一家互联网公司做财务.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from dreaming.engine.dates import MONTHS, day_text
from dreaming.engine.language import is_chinese

_DUE_EN_RE = re.compile(
    r"\b(?P<what>tomorrow|next week|next month|next year)\b|\bin (?P<m>" + "|".join(MONTHS) + r") (?P<y>\d{4})\b", re.I
)
_DUE_ZH_RE = re.compile(r"明天|下(?:个)?(?:周|星期|礼拜)|下个月|明年")


def _month_after(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def plan_due(statement: str, *, said: date) -> tuple[date, str] | None:
    """(the day the plan's time comes, that time as a date phrase of dreaming.engine.dates) for a plan said on
    `said`; None when its words give no time ("plans to", "soon")."""
    zh = is_chinese(statement)
    m = (_DUE_ZH_RE if zh else _DUE_EN_RE).search(statement)
    if not m:
        return None
    if not zh and m.group("m"):
        due = date(int(m.group("y")), MONTHS.index(m.group("m").capitalize()) + 1, 1)
        return due, f"in {MONTHS[due.month - 1]} {due.year}"
    word = m.group(0).lower()
    if word in ("tomorrow", "明天"):
        due = said + timedelta(days=1)
        return due, f"{due.year}年{due.month}月{due.day}日" if zh else f"on {day_text(due)}"
    if word in ("next month", "下个月"):
        due = _month_after(said)
        return due, f"{due.year}年{due.month}月" if zh else f"in {MONTHS[due.month - 1]} {due.year}"
    if word in ("next year", "明年"):
        due = date(said.year + 1, 1, 1)
        return due, f"{due.year}年" if zh else f"in {due.year}"
    due = said + timedelta(days=7 - said.weekday())  # next week: from its Monday
    return due, f"{due.year}年{due.month}月{due.day}日那周" if zh else f"in the week of {day_text(due)}"


_PLAN_TIME_EN_RE = re.compile(r"\s*\b(?:tomorrow|next (?:week|month|year)|soon|in (?:" + "|".join(MONTHS) + r")(?: \d{4})?)\b",
                              re.I)
# "is starting at Google", "will start a new job as a nurse", "is going to join Stripe", "is about to start working for"
_JOB_PLAN_EN_RE = re.compile(
    r"^User (?:is|will be|is going to be|is about to be) (?:starting|beginning|joining) |"
    r"^User (?:will|is going to|is about to|plans to) (?:start|begin|join) "
)
_NEW_JOB_EN_RE = re.compile(r"^(?:a new job|a new position|(?:a )?new role|work|working|a job)\s*(?=\b(?:at|with|for|as)\b|$)")
_JOB_WHERE_EN_RE = re.compile(r"^(?:(?:at|with|for) )?(?P<where>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)(?P<rest>(?: as an? [\w -]+)?)$")
_JOB_AS_EN_RE = re.compile(r"^as an? [\w -]+$")
# 用户下个月去一家互联网公司做财务 / 用户明年要到腾讯上班 / 用户下周开始在一家医院当护士
_JOB_PLAN_ZH_RE = re.compile(
    r"^(?:下(?:个)?(?:周|星期|礼拜)|下个月|明年|明天)?用户(?:下(?:个)?(?:周|星期|礼拜)|下个月|明年|明天)?(?:就)?(?:要|将|会|准备|打算)?(?:去|到|进|开始在)"
    r"(?P<where>[^，,。]+?)(?P<role>(?:做|当)[\u4e00-\u9fff]{1,6}|上班|工作)$"
)


def job_plan_taken(plan: str, *, when: str) -> str | None:
    """The job a plan to start one has become once due ("in October 2026" / "2026年10月"), or None when the plan
    is not about starting a job."""
    zh = _JOB_PLAN_ZH_RE.match(plan.strip(" 。"))
    if zh:
        return f"用户{when}起在{zh.group('where')}{zh.group('role')}"
    head = _JOB_PLAN_EN_RE.match(plan)
    if not head:
        return None
    rest = _PLAN_TIME_EN_RE.sub("", plan[head.end():]).strip(" .!")
    rest = _NEW_JOB_EN_RE.sub("", rest).strip()
    where = _JOB_WHERE_EN_RE.match(rest)
    if where and (where.group("rest") or "join" not in head.group(0)):  # "is joining Toastmasters": a club, or a job?
        return f"User started working at {where.group('where')}{where.group('rest')} {when}"
    if _JOB_AS_EN_RE.match(rest):
        return f"User started working {rest} {when}"
    return None
