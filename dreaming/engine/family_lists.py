"""A family counted and then named: the names and ages are kept with the count, in one memory.

"I have two older sisters, Maya who is 34 and Priya who is 31, and a younger brother named Dev" kept only
"User has two older sisters"; "We have three kids: Lily is 7, Sam is 5 and baby Noah just turned one" kept
"User's household has three kids: Lily is 7"; "我有两个孩子，儿子8岁，女儿5岁" kept "用户有两个孩子". The names and
ages are what a user expects to be remembered. Read whole: "User has two older sisters: Maya (34) and Priya
(31)" and "User has a younger brother named Dev"; "User has three kids: Lily (7), Sam (5) and Noah (1)";
"用户有两个孩子，儿子8岁，女儿5岁". One memory per list, not one per person: a session keeps its ten most
important candidates, and a family of five would crowd out the rest of what the user said.
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite
from dreaming.engine.third_person import to_third_person_zh

_COUNT = r"(?:two|three|four|five|six|seven|\d)"
_KIN_PLURALS = {"sisters": "sister", "brothers": "brother", "kids": "kid", "children": "child", "sons": "son",
                "daughters": "daughter", "boys": "boy", "girls": "girl", "siblings": "sibling", "grandkids": "grandchild", "grandchildren": "grandchild"}
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
# What is said of them all after the list ("…, both picky eaters", "…, who are my world") is no member.
_LIST_TAIL_EN_RE = re.compile(r"\s*[,;–—-]\s*(?:both|all|who|they|they're|they are|and they|and both)\b.*$", re.IGNORECASE)
_LIST_SPLIT_RE = re.compile(r"\s*(?:,|;|\band\b|&)\s*(?=(?:and\s+|&\s+)?(?:(?:baby|little|my|our)\s+)?[A-Z]|(?:and\s+)?an?\s)")


def _members_en(listed: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]] | None:
    """(members, others): each member as (piece, "Lily (7)" / "Tom"), and one more of another kind as (piece,
    statement); None when a piece is neither (the list is not one)."""
    members, others = [], []
    for piece in (p.strip(" .!,") for p in _LIST_SPLIT_RE.split(listed) if p.strip(" .!,")):
        member, another = _MEMBER_EN_RE.match(piece), _ANOTHER_EN_RE.match(piece)
        if another:
            others.append((piece, f"User has {another.group('what')} named {another.group('name')}"))
        elif member and not others:
            age = member.group("age")
            members.append((piece, f"{member.group('name')} ({_AGES.get(age.lower(), age)})" if age else member.group("name")))
        else:
            return None
    return members, others


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def family_list_en(sentence: str) -> Rewrite | None:
    head = _HEAD_EN_RE.search(sentence)
    if not head or "?" in sentence:
        return None
    listed = _LIST_TAIL_EN_RE.sub("", sentence[head.end():]).rstrip(" .!)")
    read = _members_en(listed)
    if not read or len(read[0]) < 2:
        return None
    members, others = read
    last = members[-1][0]
    quote = sentence[head.start():sentence.index(last, head.end()) + len(last)]
    kin = f"{head.group('count')}{head.group('kind') or ''} {head.group('kin')}"
    said = (quote, f"User has {kin}: {_and_list([m for _, m in members])}")
    return Rewrite(replaces=sentence[head.start():].rstrip(" .!"), said=(said, *others))


_KIN_ZH = r"(?:大|二|小|老大|老二|老三)?(?:儿子|女儿|姐姐|哥哥|弟弟|妹妹|姐|哥|弟|妹)"
_HEAD_ZH_RE = re.compile(r"我(?:家)?有[两二三四五六七八九\d]+个(?:孩子|姐姐|哥哥|弟弟|妹妹|兄弟姐妹|女儿|儿子|小孩)"
                         r"(?:和[一两二三\d]+个(?:姐姐|哥哥|弟弟|妹妹|女儿|儿子))?")
_MEMBER_ZH_RE = re.compile(rf"^{_KIN_ZH}(?:叫[\u4e00-\u9fff]{{1,3}})?(?:，|,)?(?:今年|已经|才)?[\d一二两三四五六七八九十]{{1,3}}岁(?:了)?$"
                           rf"|^{_KIN_ZH}叫[\u4e00-\u9fff]{{1,3}}$"
                           # "小明（7岁）": a name with the age after it
                           r"|^[\u4e00-\u9fff]{1,3}[（(][\d一二两三四五六七八九十]{1,3}岁[）)]$")


def family_list_zh(sentence: str) -> Rewrite | None:
    head = _HEAD_ZH_RE.search(sentence)
    if not head or re.search(r"[吗呢？?]", sentence):
        return None
    pieces = [p for p in re.split(r"[，,、；;。！!：:]|(?<=[）)])和", sentence[head.end():]) if p.strip()]
    members = [p.strip() for p in pieces if _MEMBER_ZH_RE.match(p.strip())]
    if not members or len(members) != len(pieces):
        return None
    quote = sentence[head.start():sentence.index(members[-1], head.end()) + len(members[-1])]
    return Rewrite(replaces=head.group(0), said=((quote, to_third_person_zh(quote)),))
