"""The user's spouse, however the words name them: one person, one memory.

"User is married to a doctor", "User's wife is a doctor at the city hospital" and 用户的老婆是医生 say what the spouse
does; the first names no wife or husband, the others no marriage, and read apart they made two memories about one
person. Compared in one form ("User's spouse is a doctor …", 用户的爱人是医生), they are the same thing said again;
"married to a doctor" says less than "the wife is a doctor at the city hospital", which keeps its wording. A bare
"User is married" stays its own memory: a status, which a divorce ends.
Only for comparing: the memory keeps the user's words.
"""
from __future__ import annotations

import re

# "User is married to a doctor" / "User is happily married to an architect named Tom" (not "married to their job")
_MARRIED_TO_EN_RE = re.compile(
    r"^User (?:is|has been|got) (?:happily |now |recently |just )?married to (?P<who>an? (?!job\b|work\b)[\w -]+)$"
)
_SPOUSE_EN_RE = re.compile(r"^User's (?:wife|husband|spouse)\b")
# 用户嫁给了一个医生 / 用户娶了一位老师 / 用户和一个医生结婚了
_MARRIED_TO_ZH_RE = re.compile(r"^用户(?:嫁给了|娶了|和)(?:一(?:个|位|名))?(?P<who>[\u4e00-\u9fff]{1,6}?)(?:结婚了)?$")
_SPOUSE_ZH_RE = re.compile(r"^用户的(?:老婆|老公|妻子|丈夫|太太|先生)")


def as_spouse(statement: str) -> str:
    """The statement in its spouse form when it says who the user's spouse is or what they do, else unchanged."""
    text = statement.strip().rstrip(".。")
    m = _MARRIED_TO_EN_RE.match(text)
    if m:
        return f"User's spouse is {m.group('who')}"
    m = _MARRIED_TO_ZH_RE.match(text)
    if m and (text.startswith(("用户嫁给了", "用户娶了")) or text.endswith("结婚了")):
        return f"用户的爱人是{m.group('who')}"
    if _SPOUSE_EN_RE.match(text):
        return _SPOUSE_EN_RE.sub("User's spouse", text)
    return _SPOUSE_ZH_RE.sub("用户的爱人", text)


def says_less_of_the_spouse(statement: str, memory: str) -> bool:
    """"User is married to a doctor" beside "User's wife is a doctor at the city hospital": all it says is there."""
    short, long = as_spouse(statement), as_spouse(memory)
    if short == statement.strip().rstrip(".。") or not long.startswith(("User's spouse", "用户的爱人")):
        return False
    rest = long[len(short):]
    return long.startswith(short) and bool(rest) and (short.startswith("用户") or not rest[0].isalnum())  # not "doctoral"


def same_spouse(a: str, b: str) -> bool:
    """Two statements about the user's spouse, one saying all the other says ("User is married to a doctor" /
    "User's wife is a doctor at the city hospital"): one memory."""
    return says_less_of_the_spouse(a, b) or says_less_of_the_spouse(b, a)
