"""A pet or a person the user named before, who died: "Max passed away last week" after "User has a golden retriever
named Max".

Light sleep reads the bare name ("sad news, Max passed away last week" said nothing before) as the user's own: "User's
Max passed away last week" (Chinese: 豆豆去世了 → 用户的豆豆去世了). Deep sleep names it by the memory that named Max
("User's golden retriever Max passed away last week", named_outcomes.py) and ends what said the user has Max
(endings.py). Only a name said before counts; "someone" or a relative without a name ends nothing.
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite

_DIED_EN = r"(?:passed away|passed on|died|was put down|was put to sleep|crossed the rainbow bridge)"
_BARE_NAME_DIED_EN_RE = re.compile(
    rf"(?:^|(?<=[,;:] )|(?<=\. ))(?P<name>(?-i:[A-Z][a-z]{{2,}})) (?:just |sadly |finally |unexpectedly )?{_DIED_EN}"
    r"(?P<rest>(?: (?:last|this) (?:week|month|night|weekend|year)| yesterday| today| on \w+day| in \w+)?)"
)
_NOT_A_NAME = frozenset("She He It They This That What Everyone Someone Nobody Grandma Grandpa Mom Dad Mum".split())
_DIED_ZH_RE = re.compile(r"(?:^|(?<=[，,。！!]))(?P<name>[\u4e00-\u9fff]{2,3}?)(?:昨天|上周|前几天|上个月|今天)?(?:去世了|死了|病逝了)")
_NOT_A_NAME_ZH = frozenset("他们 她们 我们 大家 有人 别人 它们".split())

# deep sleep: the death told, and the memories that named the one who died
_PASSED_EN_RE = re.compile(rf"^User's (?P<kind>(?:[\w-]+ ){{0,2}})(?P<name>[A-Z][a-z]+) {_DIED_EN}\b|^User lost (?:their [\w -]+? )?"
                           r"(?P<name2>[A-Z][a-z]+)\b")
_PASSED_ZH_RE = re.compile(r"^用户(?:家|的)(?P<who>[\u4e00-\u9fff]{2,8}?)(?:昨天|上周|前几天|上个月|今天)?(?:去世了|死了|病逝了)")


def passing_en(sentence: str) -> Rewrite | None:
    m = _BARE_NAME_DIED_EN_RE.search(sentence)
    if not m or m.group("name") in _NOT_A_NAME or "?" in sentence:
        return None
    quote = m.group(0)
    return Rewrite(replaces=quote, said=((quote, f"User's {quote}"),))


def passing_zh(sentence: str) -> Rewrite | None:
    m = _DIED_ZH_RE.search(sentence)
    if not m or m.group("name") in _NOT_A_NAME_ZH or re.search(r"[吗呢？?]|我", m.group(0)):
        return None
    return Rewrite(replaces=m.group(0), said=((m.group(0), f"用户的{m.group(0)}"),))


def _who_died(statement: str) -> list[str]:
    """The names the death may be of: one in English; in Chinese the last two or three characters before 去世
    ("用户的柯基豆豆去世了": 豆豆, 基豆豆), the memory that names one of them decides."""
    if m := _PASSED_EN_RE.match(statement):
        return [m.group("name") or m.group("name2")]
    if m := _PASSED_ZH_RE.match(statement):
        return [m.group("who")[-n:] for n in (2, 3) if len(m.group("who")) >= n]
    return []


def tells_a_death(statement: str) -> bool:
    return bool(_who_died(statement))


def _named_in(name: str, old: str) -> re.Match | None:
    """Where `old` names `name` as the user's own: "has a golden retriever named Max", "User's dog Max", 叫豆豆."""
    if re.search(r"[\u4e00-\u9fff]", name):
        return re.search(rf"^用户(?:养了|有|家的?|的)(?:一只|一条|一个|只|条)?(?P<kind>[\u4e00-\u9fff]{{0,6}}?)(?:叫|名叫)?"
                         rf"{re.escape(name)}", old)
    return re.search(rf"^User (?:has|had|adopted|got) (?:an? |their )?(?P<kind>[\w -]+?) (?:named|called) {name}\b"
                     rf"|^User's (?P<kind2>[\w -]+?) (?:is named |is called )?{name}\b", old)


def death_ends(new: str, old: str) -> str | None:
    """"no longer: Max (died)" when `new` tells the death of the one `old` says the user has, else None."""
    name, named = next(((n, m) for n in _who_died(new) if (m := _named_in(n, old))), (None, None))
    said = _PASSED_EN_RE.match(new)
    kind = set((said.group("kind") or "").split()) if said else set()
    if named and kind and not kind & set((named.group("kind") or named.groupdict().get("kind2") or "").split()):
        return None  # "User's cat Luna died" says nothing of a sister named Luna
    if not name or re.search(r"\b(?:passed away|died)\b|去世|死了", old):
        return None
    return f"no longer: {name} (died)"


def death_named(statement: str, earlier: list[str]) -> tuple[str, int] | None:
    """("User's golden retriever Max passed away last week", index of the memory naming Max) for "User's Max …"."""
    m = re.match(r"^User's (?P<name>[A-Z][a-z]+) (?P<rest>.+)$", statement) or re.match(
        r"^用户的(?P<name>[\u4e00-\u9fff]{2,3}?)(?P<rest>(?:昨天|上周|前几天|上个月|今天)?(?:去世了|死了|病逝了))$", statement)
    if not m or not tells_a_death(statement):
        return None
    found = [(i, k) for i, s in enumerate(earlier) if (k := _named_in(m.group("name"), s))]
    kinds = {(k.group("kind") or k.groupdict().get("kind2") or "").strip() for _, k in found}
    if len(kinds) != 1 or not next(iter(kinds)):
        return None
    kind, at = next(iter(kinds)), found[0][0]
    if statement.startswith("用户"):
        return f"用户的{kind}{m.group('name')}{m.group('rest')}", at
    return f"User's {kind} {m.group('name')} {m.group('rest')}", at
