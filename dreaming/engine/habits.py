"""A habit the user says is over: "User quit coffee in October" after "User drinks 4 cups of coffee a day".

compare.py's negation test needs most of the two statements' words shared, which a habit told with its amount and
its rate never has with the short "quit coffee". Here the thing quit is read from the new statement and looked for
as the object of the old statement's habit verb (drinks, eats, smokes, plays…), in English or Chinese.
"""
from __future__ import annotations

import re

from dreaming.engine.language import content_tokens

_QUIT_EN_RE = re.compile(
    r"^User (?:has )?(?:quit|stopped|gave up|has given up|cut out|no longer (?:drinks|eats|smokes|plays|does)|"
    r"(?:doesn't|does not) (?:drink|eat|smoke|play|do)(?=.*\b(?:anymore|any more)\b))\s+"
    r"(?:(?P<ing>drinking|eating|smoking|vaping|playing|doing)\b\s*)?(?P<x>.*)$", re.I,
)
_QUIT_ZH_RE = re.compile(r"^用户(?:已经)?(?:戒了|戒掉了|不再(?:喝|吃|抽|玩)|不(?:喝|吃|抽)(?=.*了$))(?P<x>.+)$")
_HABIT_EN_RE = re.compile(r"^User (?:usually |often |still )?(?P<verb>drinks|eats|smokes|plays|vapes|takes|"
                          r"has(?= (?:about |around )?(?:\d|an? |one |two |three |four |five |a few |several )))\b(?P<x>.*)$", re.I)
_HABIT_ZH_RE = re.compile(r"^用户.{0,6}?(?:喝|吃|抽|玩)(?P<x>.+)$")
# when it ended and how often is not what was quit
_NOT_THE_THING = frozenset("anymore any more now completely totally cold turkey last week month year ago since in on for "
                           "january february march april may june july august september october november december".split())


def ends_a_habit(statement: str) -> bool:
    """"User quit coffee", "用户戒了咖啡": a statement habit_ended may find an old habit for."""
    return bool(_QUIT_EN_RE.match(statement) or _QUIT_ZH_RE.match(statement))


def habit_ended(new: str, old: str) -> str | None:
    """"no longer: coffee" when `new` says the user quit what `old`'s habit verb takes, else None."""
    quit = _QUIT_EN_RE.match(new) or _QUIT_ZH_RE.match(new)
    habit = _HABIT_EN_RE.match(old) or _HABIT_ZH_RE.match(old)
    if not quit or not habit or re.search(r"\b(?:not|never|no longer|doesn't|wants to|plans to|will)\b|不|想|打算", old):
        return None
    thing = [t for t in content_tokens(quit.group("x")) if t not in _NOT_THE_THING and not t.isdigit() and t[-1] != "了"]
    if not thing and quit.groupdict().get("ing") and "verb" in habit.groupdict():
        # "User quit smoking last year" after "User smokes a pack a day": the habit is the verb itself
        return f"no longer: {quit.group('ing')}" if quit.group("ing")[:3].lower() == habit.group("verb")[:3].lower() else None
    return f"no longer: {' '.join(thing)}" if thing and set(thing) <= set(content_tokens(habit.group("x"))) else None


# "User has given up knitting": a pastime quit, said by its gerund alone (a time after it may follow)
_QUIT_PASTIME_RE = re.compile(r"^User (?:has )?(?:quit|stopped|gave up|given up|has given up) (?P<g>[a-z]{3,}ing)"
                              r"(?:\s+(?:completely|for good|now|last \w+|in \w+|\w+ ago))?$", re.I)


def pastime_ended(new: str, old: str) -> str | None:
    """"no longer: knitting" when `new` says the user gave up the pastime `old` says they do, learn or mean to take up
    ("User wants to learn to knit", "User knits scarves", "User goes running"), else None. Not what another does
    ("User's dad knits") and not what `old` already denies."""
    quit = _QUIT_PASTIME_RE.match(new)
    if not quit or not old.startswith("User ") or re.search(r"\b(?:not|never|no longer|doesn't)\b", old):
        return None
    gerund = quit.group("g").lower()
    stem = gerund[:-3]
    stem = stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else stem  # "knitting" → knit, "running" → run
    if re.search(rf"\b(?:{re.escape(gerund)}|{re.escape(stem)}(?:s|es)?)\b", old, re.I):
        return f"no longer: {gerund}"
    return None
