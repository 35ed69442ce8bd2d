"""How often a habit is done, in words that do not depend on the language: "twice a week" / "每周打两次" → "2/week".

"User plays badminton twice a week" and "用户每周打两次羽毛球" are one habit; "用户现在每周打三次羽毛球了" is that habit
changed, not a second one. slots.py reads the frequency as part of what a statement says (not as a count of
things, nor as words it leaves unexplained); compare.py weighs another frequency of the same habit as a change.
"""
from __future__ import annotations

import re

_WORDS = {"once": 1, "twice": 2, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_UNITS = {"day": "day", "week": "week", "month": "month", "year": "year", "天": "day", "周": "week", "星期": "week",
          "礼拜": "week", "月": "month", "个月": "month", "年": "year"}
FREQUENCY_RE = re.compile(
    r"\b(?P<n>once|twice|\d+|one|two|three|four|five|six|seven)(?: times?)? (?:a|per|each|every) (?P<unit>day|week|month|year)\b"
    r"|(?:每|一)(?P<zunit>天|周|星期|礼拜|个月|月|年)(?P<verb>[\u4e00-\u9fff＿]{0,4}?)(?P<zn>\d+|[一两二三四五六七八九十])次",
    re.I,
)


def frequency_of(text: str) -> str | None:
    """"2/week" for "twice a week" / "每周打两次"; None when the text says no "N times a …"."""
    m = FREQUENCY_RE.search(text)
    if not m:
        return None
    n, unit = (m.group("n"), m.group("unit")) if m.group("n") else (m.group("zn"), m.group("zunit"))
    count = int(n) if n.isdigit() else _WORDS.get(n.lower())
    return f"{count}/{_UNITS[unit.lower()]}" if count else None


def without_frequency(text: str) -> str:
    """The text with its frequency phrase taken out (the verb inside "每周打两次" stays, or the ＿ slots.py put for
    a lexicon word there: "每周＿两次")."""
    return FREQUENCY_RE.sub(lambda m: f" {m.group('verb') or ''} ", text)
