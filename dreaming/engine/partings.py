"""A couple that parted ends what the user had said of the partner: "User broke up with Chris" after "User's boyfriend
is named Chris" (and "User lives in Portland with their boyfriend Chris"); 用户和小林分手了 after 用户的男朋友叫小林.

The comparer sees no shared value ("broke up" and "is named" share only Chris), so deep sleep asks here after it
promotes the parting, as it does for a habit quit (habits.py) or a job left (jobs_left.py). A parting that names
the partner ends only what names them; one that does not ("User broke up with their boyfriend") ends what is said
of the one partner on record, decided by the caller (of two, which one is not said).
"""
from __future__ import annotations

import re

_PARTED_EN_RE = re.compile(r"^User (?:broke up with|separated from|(?:got|is getting) divorced from|split up with) "
                           r"(?:their (?P<role>boyfriend|girlfriend|partner|husband|wife|fianc[eé]e?|bf|gf)\b ?)?"
                           r"(?P<name>[A-Z][a-z]+)?")
_PARTED_ZH_RE = re.compile(r"^用户(?:和|跟)(?P<who>[\u4e00-\u9fffA-Za-z]{1,5}?)(?:已经|刚刚?|终于)?(?:分手了|离婚了)")
_SPOUSE = r"husband|wife|spouse"
_PARTNER_EN_RE = re.compile(rf"\b(?:User's|their) (?P<role>boyfriend|girlfriend|partner|fianc[eé]e?|{_SPOUSE})\b"
                            r"(?:(?: is named| is called|'s name is)? (?P<name>[A-Z][a-z]+))?|^User is (?:dating|engaged|"
                            r"in a relationship|married)\b(?: (?:to|with))?(?: (?P<to>[A-Z][a-z]+))?|^User has an? (?P<role2>boyfriend|girlfriend|"
                            r"partner)\b")
_PARTNER_ZH_RE = re.compile(r"用户的(?P<role>男朋友|女朋友|对象|老公|老婆|丈夫|妻子|未婚夫|未婚妻)(?:叫(?P<name>[\u4e00-\u9fffA-Za-z]{1,4}))?"
                            r"|^用户(?:和(?P<to>[\u4e00-\u9fffA-Za-z]{1,4}))?(?:在)?(?:谈恋爱|结婚|订婚)")
_ROLE_ZH = {"男朋友": "boyfriend", "女朋友": "girlfriend", "对象": "partner", "老公": "husband", "丈夫": "husband",
            "老婆": "wife", "妻子": "wife", "未婚夫": "fiance", "未婚妻": "fiancee"}


# A partner already past: "User's ex-boyfriend is named Chris", 前男友.
_PAST_PARTNER_RE = re.compile(r"\b(?:ex|former|used to|late)\b|前男友|前女友|前夫|前妻|以前")


def _partner(old: str) -> re.Match | None:
    return None if _PAST_PARTNER_RE.search(old) else (_PARTNER_EN_RE.search(old) or _PARTNER_ZH_RE.search(old))


def parts_a_couple(statement: str) -> bool:
    return bool(_PARTED_EN_RE.match(statement) or _PARTED_ZH_RE.match(statement))


def parted_from(new: str, old: str) -> str | None:
    """"no longer together: Chris" when `new` says the user parted from the partner `old` speaks of, else None."""
    en, zh = _PARTED_EN_RE.match(new), _PARTED_ZH_RE.match(new)
    partner = (_PARTNER_EN_RE if en else _PARTNER_ZH_RE).search(old) if en or zh else None
    if not partner or _PAST_PARTNER_RE.search(old):
        return None
    old_name = partner.group("name") or partner.group("to")
    old_role = partner.group("role") or partner.groupdict().get("role2")
    if en:
        name, role = en.group("name"), en.group("role")
    else:
        who = zh.group("who")
        name, role = (None, _ROLE_ZH[who]) if who in _ROLE_ZH else (who, None)
        old_role = _ROLE_ZH.get(old_role or "", old_role)
    if name:
        return f"no longer together: {name}" if old_name == name else None
    if role and old_role and role.rstrip("e") != old_role.rstrip("e"):
        return None  # "broke up with their boyfriend" leaves the husband alone
    return f"no longer together: the {role or 'partner'}"


def _role_of(old: str) -> str | None:
    partner = _partner(old)
    role = partner and (partner.group("role") or partner.groupdict().get("role2"))
    return _ROLE_ZH.get(role, role) if role else None


def parted_in(new: str, olds: list[str]) -> list[tuple[int, str]]:
    """(index, why) of each of `olds` a parting ends: those parted_from names, and then what is said of that partner
    by their role alone ("用户的男朋友是程序员" once 用户和小林分手了 ended "用户的男朋友叫小林")."""
    ended = [(i, why) for i, old in enumerate(olds) if (why := parted_from(new, old))]
    roles = {_role_of(olds[i]) for i, _ in ended} - {None}
    named = {i for i, _ in ended}
    for i, old in enumerate(olds):
        partner = _partner(old)
        if i not in named and partner and not (partner.group("name") or partner.group("to")) and _role_of(old) in roles:
            ended.append((i, f"no longer together: the {_role_of(old)}"))
    return ended
