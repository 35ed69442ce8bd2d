"""A bare "has" that another statement already says with more: "User has a dog" beside "User's dog is named
Biscuit", "User has a little sister" beside "User's little sister Ava started high school", 用户有一只猫 beside
用户的猫叫奶茶. Both stay memories (each has its own words and sources); MEMORY.md, which every chat reads, says
the thing once (memory/context.py)."""
from __future__ import annotations

import re

_HAS_EN_RE = re.compile(r"^User has (?:a|an|one) (?P<x>[a-z][a-z -]{1,30}[a-z])$")
_HAS_ZH_RE = re.compile(r"^用户(?:有|养了)(?:一只|一个|一条|一位|个|只)(?P<x>[\u4e00-\u9fff]{1,6})$")


def _says_more_en(x: str, statement: str) -> bool:
    x = re.escape(x)
    return bool(re.match(rf"^User's {x}(?: is named| is called|'s name is| [A-Z][\w'-]+\b)", statement)
                or re.match(rf"^User has (?:a|an|one) {x} (?:named|called) [A-Z]", statement))


def _says_more_zh(x: str, statement: str) -> bool:
    return bool(re.match(rf"^用户(?:的|家的?)?{re.escape(x)}(?:叫|名叫|名字叫)", statement)
                or re.match(rf"^用户(?:有|养了)(?:一只|一个|一条|一位|个|只)[\u4e00-\u9fff]{{0,4}}{re.escape(x)}叫", statement))


def said_with_more(statements: list[str]) -> set[int]:
    """The indexes of the bare "User has a dog" statements that another of `statements` says with more."""
    out = set()
    for i, statement in enumerate(statements):
        en, zh = _HAS_EN_RE.match(statement), _HAS_ZH_RE.match(statement)
        if not en and not zh:
            continue
        says_more = _says_more_en if en else _says_more_zh
        x = (en or zh).group("x")
        if any(says_more(x, other) for j, other in enumerate(statements) if j != i):
            out.add(i)
    return out
