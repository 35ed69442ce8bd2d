"""A later age of someone a family list names: the list takes it, and stays one memory.

"User has two kids: Lily (7) and Max (4)" (family_lists.py) is one memory for the family, so "Lily turned 8" said
later found no "Lily" memory to change and the list kept saying 7. The age statement is read against the list:
"User has two kids: Lily (8) and Max (4)". In Chinese the members are named or told by their kin word:
用户有两个孩子，儿子8岁，女儿5岁 + 用户的儿子今年9岁了 → 用户有两个孩子，儿子9岁，女儿5岁.
"""
from __future__ import annotations

import re

from dreaming.engine.dates import DATE_PHRASE_RE

_AGE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
              "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
              "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

# "User's daughter Lily turned 8 in the week before …", "Lily just turned eight", "Lily is 8 now", "Max is now five"
_AGE_EN_RE = re.compile(
    r"^(?:User's (?:[a-z]+ ){1,2})?(?P<name>[A-Z][a-z]+) (?:just |has just |has )?(?:turned|is now|is) (?:now )?"
    r"(?P<age>\d{1,2}|" + "|".join(_AGE_WORDS) + r")(?: years? old)?(?: now)?(?:$|[ ,.!])"
)
# "User has two kids: Lily (7) and Max (4)"
_LIST_EN_RE = re.compile(r"^User has [\w -]+: .+\(\d{1,2}\)")
# 用户的儿子今年9岁了 / 小明今年八岁了 / 用户的女儿刚满六岁
_AGE_ZH_RE = re.compile(r"^(?:用户的)?(?P<who>[\u4e00-\u9fff]{1,3}?)(?:今年|现在|已经|刚满|满)*(?P<age>\d{1,2}|十?[一二两三四五六七八九]|十)岁(?:了)?$")
_LIST_ZH_RE = re.compile(r"^用户有[两二三四五六七八九\d]+个")


def _number(said: str) -> int:
    if said.isdigit():
        return int(said)
    if said in _AGE_WORDS:
        return _AGE_WORDS[said]
    tens, _, ones = said.rpartition("十")
    if "十" not in said:
        return _ZH_DIGITS[said]
    return (_ZH_DIGITS.get(tens, 1)) * 10 + _ZH_DIGITS.get(ones, 0)


def member_age(statement: str) -> tuple[str, int] | None:
    """(who, age) when the statement gives someone's age now: ("Lily", 8), ("儿子", 9)."""
    text = statement.strip().rstrip(".。!！")
    m = _AGE_EN_RE.match(text)
    text = DATE_PHRASE_RE.sub("", text)  # 用户的女儿2026年11月20日前后满六岁
    if m and m.group("name") != "User":
        return m.group("name"), _number(m.group("age").lower())
    m = _AGE_ZH_RE.match(text)
    if m and m.group("who") != "用户":
        return m.group("who"), _number(m.group("age"))
    return None


def list_with_new_age(statement: str, family: str) -> str | None:
    """The family list `family` with the age `statement` gives one of its members, or None when it names no such
    member or already says that age."""
    said = member_age(statement)
    if said is None:
        return None
    who, age = said
    if _LIST_EN_RE.match(family):
        pattern = re.compile(rf"\b{re.escape(who)} \((?P<age>\d{{1,2}})\)")
        render = f"{who} ({age})"
    elif _LIST_ZH_RE.match(family):
        pattern = re.compile(rf"{re.escape(who)}(?:（|\()?(?P<age>\d{{1,2}}|十?[一二两三四五六七八九]|十)岁(?:）|\))?")
        render = None
    else:
        return None
    found = list(pattern.finditer(family))
    if len(found) != 1 or _number(found[0].group("age")) == age:
        return None  # not in the list, two of that kin word, or nothing new
    m = found[0]
    if render is None:
        render = m.group(0).replace(m.group("age"), str(age), 1)
    return family[: m.start()] + render + family[m.end():]


_MEMBER_EN_RE = re.compile(r"\b([A-Z][a-z]+) \(\d{1,2}\)")
_MEMBER_ZH_RE = re.compile(r"([\u4e00-\u9fff]{1,3}?)(?:（|\()?(?:\d{1,2}|十?[一二两三四五六七八九]|十)岁")


def member_keys(statement: str) -> set[str]:
    """Who a family list names with an age, or whose age the statement gives: what deep sleep matches them by."""
    said = member_age(statement)
    if said:
        return {said[0]}
    if _LIST_EN_RE.match(statement):
        return set(_MEMBER_EN_RE.findall(statement))
    if _LIST_ZH_RE.match(statement):
        return {m.removeprefix("，").lstrip("，：、和") for m in _MEMBER_ZH_RE.findall(statement.split("个", 1)[-1])}
    return set()


# "Lily turned 8 last week, we had a big party": a birthday of someone the user knows by name, with its time.
_BIRTHDAY_EN_RE = re.compile(
    r"^(?:(?:And|So|Well|Oh|Also),? )?(?P<q>(?P<name>(?!I\b)[A-Z][a-z]+) (?:just |finally )?turned (?P<n>\d{1,2}|"
    + "|".join(_AGE_WORDS) + r")(?: years? old)?(?: (?:last|this) (?:week|weekend|month)| yesterday| today"
    r"| on (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)?)\b(?! in \d{4})"
)
# 小明今年八岁了 / 女儿今年八岁了 (the user's, said with no 我): an age said of someone, with no pronoun for them
_AGE_SAID_ZH_RE = re.compile(r"^(?P<who>(?![我你他她它])[\u4e00-\u9fff]{2,3}?)(?:今年|已经|刚满|刚刚满)(?:\d{1,2}|十?[一二两三四五六七八九]|十)岁了?")
_KIN_ZH = ("儿子", "女儿", "孩子", "老大", "老二", "姐姐", "哥哥", "弟弟", "妹妹")


def birthday_en(sentence: str) -> tuple[str, str] | None:
    m = _BIRTHDAY_EN_RE.match(sentence.strip())
    return (m.group("q"), re.sub(r" (?:just|finally) ", " ", m.group("q"))) if m else None  # "just": dates.py


def age_said_zh(clause: str) -> tuple[str, str] | None:
    m = _AGE_SAID_ZH_RE.match(clause.strip())
    if not m:
        return None
    quote = m.group(0)
    return quote, (f"用户的{quote}" if m.group("who") in _KIN_ZH else quote)
