"""The members of a family counted and then named: each one's name and age is a memory of its own.

"I have two older sisters, Maya who is 34 and Priya who is 31, and a younger brother named Dev" kept only
"User has two older sisters"; "We have three kids: Lily is 7, Sam is 5 and baby Noah just turned one" kept
"User's household has three kids: Lily is 7"; "我有两个孩子，儿子8岁，女儿5岁" kept "用户有两个孩子". The names
and ages are what a user expects to be remembered, and one memory per person is what a later "Lily turned 8"
updates. Read whole: "User has three kids", "User's kid Lily is 7", "User's kid Sam is 5", "User's kid Noah is
1"; "User's sister Maya is 34", …, "User has a younger brother named Dev"; "用户的儿子8岁", "用户的女儿5岁".
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite

_COUNT = r"(?:two|three|four|five|six|seven|\d)"
_KIN_PLURALS = {"sisters": "sister", "brothers": "brother", "kids": "kid", "children": "child", "sons": "son",
                "daughters": "daughter", "siblings": "sibling", "grandkids": "grandchild", "grandchildren": "grandchild"}
_HEAD_EN_RE = re.compile(
    rf"\b(?P<who>I|we|We)(?: (?:also|now|both))? (?:have|'ve got|’ve got|have got) (?P<count>{_COUNT})"
    rf"(?P<kind> (?:older|younger|little|big|grown|grown-up|adult|lovely|amazing|wonderful))? "
    rf"(?P<kin>{'|'.join(_KIN_PLURALS)})\b\s*(?:[:,(–—-]|\bnamed\b|\bcalled\b)\s*"
)
_AGES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
         "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
         "eighteen": 18, "nineteen": 19, "twenty": 20}
_AGE = r"(?P<age>\d{1,2}|" + "|".join(_AGES) + r")(?: (?:years? old|yrs? old|yo|months? old))?"
# "Lily is 7", "Maya who is 34", "Sam (5)", "Sam, 5", "baby Noah just turned one", "Dev"
_MEMBER_EN_RE = re.compile(
    rf"^(?:(?:and|&)\s+)?(?:(?:baby|little|lil|my|our|the)\s+)?(?P<name>[A-Z][a-z]+)"
    rf"(?:\s*(?:,|\(|who is|who's|who just turned|is|is now|just turned|turned|aged?)\s*{_AGE}\)?)?$"
)
# "and a younger brother named Dev": one more, of another kind
_ANOTHER_EN_RE = re.compile(
    r"^(?:(?:and|plus)\s+)?(?P<what>an? (?:(?:older|younger|little|big|baby|step|half)[ -])?(?:sister|brother|son|daughter|"
    r"kid|child))\s+(?:named|called)\s+(?P<name>[A-Z][a-z]+)$"
)
_LIST_SPLIT_RE = re.compile(r"\s*(?:,|;|\band\b|&)\s*(?=(?:and\s+|&\s+)?(?:(?:baby|little|my|our)\s+)?[A-Z]|(?:and\s+)?an?\s)")


def _members_en(listed: str, kin: str) -> list[tuple[str, str]]:
    """(quote, statement) for each member the list names; [] when any piece is not a member (the list is not one)."""
    said = []
    for piece in (p.strip(" .!,") for p in _LIST_SPLIT_RE.split(listed) if p.strip(" .!,")):
        member, another = _MEMBER_EN_RE.match(piece), _ANOTHER_EN_RE.match(piece)
        if another:
            said.append((piece, f"User has {another.group('what')} named {another.group('name')}"))
        elif member and member.group("age"):
            age = member.group("age")
            said.append((piece, f"User's {kin} {member.group('name')} is {_AGES.get(age.lower(), age)}"))
        elif member:
            said.append((piece, f"User has a {kin} named {member.group('name')}"))
        else:
            return []
    return said


def family_list_en(sentence: str) -> Rewrite | None:
    head = _HEAD_EN_RE.search(sentence)
    if not head or "?" in sentence:
        return None
    listed = sentence[head.end():].rstrip(" .!)")
    members = _members_en(listed, _KIN_PLURALS[head.group("kin")])
    if len(members) < 2:
        return None
    counted = f"User has {head.group('count')}{head.group('kind') or ''} {head.group('kin')}"
    head_quote = sentence[head.start():head.end()].rstrip(" ,:(–—-")
    return Rewrite(replaces=sentence[head.start():].rstrip(" .!"), said=((head_quote, counted), *members))


_KIN_ZH = r"(?:大|二|小|老大|老二|老三)?(?:儿子|女儿|姐姐|哥哥|弟弟|妹妹|姐|哥|弟|妹)"
_HEAD_ZH_RE = re.compile(r"我(?:家)?有[两二三四五六七八九\d]+个(?:孩子|姐姐|哥哥|弟弟|妹妹|兄弟姐妹|女儿|儿子|小孩)"
                         r"(?:和[一两二三\d]+个(?:姐姐|哥哥|弟弟|妹妹|女儿|儿子))?")
_MEMBER_ZH_RE = re.compile(rf"^{_KIN_ZH}(?:叫[\u4e00-\u9fff]{{1,3}})?(?:，|,)?(?:今年|已经|才)?[\d一二两三四五六七八九十]{{1,3}}岁(?:了)?$"
                           rf"|^{_KIN_ZH}叫[\u4e00-\u9fff]{{1,3}}$")


def family_list_zh(sentence: str) -> Rewrite | None:
    head = _HEAD_ZH_RE.search(sentence)
    if not head or re.search(r"[吗呢？?]", sentence):
        return None
    pieces = [p for p in re.split(r"[，,、；;。！!]", sentence[head.end():]) if p.strip()]
    members = [p.strip() for p in pieces if _MEMBER_ZH_RE.match(p.strip())]
    if not members or len(members) != len(pieces):
        return None
    return Rewrite(replaces="", said=tuple((m, "用户的" + m) for m in members))
