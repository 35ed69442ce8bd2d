"""The deep-sleep score of a candidate cluster, and how confidence fades: the formulas, in one place.

score = Σ weight[part] × part / Σ weight, every part in 0..1, weights in settings.DREAM_SCORE_WEIGHTS:

- importance      the highest importance light sleep gave any candidate of the cluster
- user_initiated  1 when the user raised it, 0 when it was a passing answer to the assistant
- recurrence      1 when it was said in more than one distinct session, else 0: this is what moves
                  a pending candidate over the promotion threshold when it comes up again later
- specificity     longer statements with a name or a number are more useful than "likes it"
- timeliness      0.5 ** (age / half-life of the category); a plan older than the plan window halves
- feedback        0.5 when nobody said anything; the latest verdict on the memory it reinforces
                  (agree 1.0, doubt 0.25, reject 0)

The breakdown is stored on the memory and the candidate as {"parts", "weights", "total"}, so the
memory center can show why something was (or was not) remembered.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

CONFIDENCE_MIN = 0.05
CONFIDENCE_MAX = 0.98

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z0-9']+")
_FILLER = frozenset("user user's the a an as to in at of on is are was has have".split())
_CJK_SPECIFIC = re.compile(r"[\d０-９]|[叫名是在于]")
# "plans to / will / next week / 打算 / 下周": a statement about the future that goes stale.
PLAN_WORDS = re.compile(
    r"\b(plan(s|ning|ned)? to|will|going to|intends? to|next (week|month|year|weekend|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday)|tomorrow|soon|this weekend|upcoming)\b"
    r"|打算|计划|准备|将要|下周|下个月|明天|明年|下星期|周末要|即将",
    re.IGNORECASE,
)
FEEDBACK_PART = {None: 0.5, "agree": 1.0, "doubt": 0.25, "reject": 0.0}


@dataclass(frozen=True)
class ScoreInput:
    statement: str
    category: str
    importance: float
    user_initiated: bool
    distinct_sessions: int
    last_said_at: datetime
    feedback: str | None = None  # latest verdict on the memory this reinforces


def clip_confidence(value: float) -> float:
    return round(min(CONFIDENCE_MAX, max(CONFIDENCE_MIN, value)), 4)


def half_life_days(category: str) -> float:
    return float(settings.DREAM_HALF_LIFE_DAYS.get(category, settings.DREAM_HALF_LIFE_DAYS["fact"]))


def is_plan(statement: str) -> bool:
    return bool(PLAN_WORDS.search(statement))


def specificity(statement: str) -> float:
    cjk_chars = len(_CJK.findall(statement))
    if cjk_chars > len(statement) / 3:
        length_part = min(1.0, cjk_chars / 12)
        named = 1.0 if _CJK_SPECIFIC.search(statement) else 0.0
    else:
        words = _LATIN_WORD.findall(statement)
        content = [w for w in words if w.lower() not in _FILLER]
        length_part = min(1.0, len(content) / 4)
        # A digit, or a capitalized word after the first (a name: Milo, Tokyo, Acme).
        named = 1.0 if any(ch.isdigit() for ch in statement) or any(w[:1].isupper() for w in words[1:]) else 0.0
    return round(0.6 * length_part + 0.4 * named, 4)


def timeliness(*, statement: str, category: str, last_said_at: datetime, now: datetime) -> float:
    age_days = max(0.0, (now - last_said_at).total_seconds() / 86400)
    value = 0.5 ** (age_days / half_life_days(category))
    if is_plan(statement) and age_days > settings.DREAM_PLAN_WINDOW_DAYS:
        value *= 0.5
    return round(value, 4)


def recurrence_part(distinct_sessions: int) -> float:
    return 1.0 if distinct_sessions > 1 else 0.0


def score_compute(*, item: ScoreInput, now: datetime) -> tuple[float, dict]:
    """The weighted score of one cluster and its visible breakdown."""
    weights = settings.DREAM_SCORE_WEIGHTS
    parts = {
        "importance": round(min(1.0, max(0.0, item.importance)), 4),
        "user_initiated": 1.0 if item.user_initiated else 0.0,
        "recurrence": recurrence_part(item.distinct_sessions),
        "specificity": specificity(item.statement),
        "timeliness": timeliness(
            statement=item.statement, category=item.category, last_said_at=item.last_said_at, now=now
        ),
        "feedback": FEEDBACK_PART.get(item.feedback, 0.5),
    }
    total_weight = sum(weights.get(name, 0.0) for name in parts) or 1.0
    total = round(sum(weights.get(name, 0.0) * value for name, value in parts.items()) / total_weight, 4)
    breakdown = {
        "parts": parts,
        "weights": {name: weights.get(name, 0.0) for name in parts},
        "total": total,
        "sessions": item.distinct_sessions,
    }
    return total, breakdown


def score_decision(score: float) -> str:
    if score >= settings.DREAM_PROMOTE_THRESHOLD:
        return "promote"
    if score >= settings.DREAM_PENDING_THRESHOLD:
        return "pending"
    return "dismiss"


def decayed_confidence(*, confidence: float, half_life: float, since: datetime, now: datetime) -> float:
    """Confidence after `now - since` of exponential decay with the given half-life (days)."""
    days = max(0.0, (now - since).total_seconds() / 86400)
    return confidence * 0.5 ** (days / half_life)
