"""A change said with its before and its now, kept as one statement: what holds now is the memory.

"I used to hate olives, now I love them" read clause by clause kept only "User used to hate olives" (the
"now I love them" clause names its thing by a pronoun), which says the opposite of what holds. Chinese
loses the same way: "我以前讨厌吃香菜，现在很喜欢" kept "用户以前讨厌吃香菜", the second clause having no
subject. Read whole, the sentence gives "User used to hate olives, but now loves them" /
"用户以前讨厌吃香菜，现在很喜欢", which deep sleep weighs against an older "User hates olives" as a change.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from dreaming.engine.third_person import to_third_person_en, to_third_person_zh

_THEN_NOW_EN_RE = re.compile(
    r"(?P<quote>\b(?:I|i) used to (?P<then>[^,.;!?]{2,60}?)\s*(?:,|;|\s-|\s–)?\s*(?:(?:but|and)\s+)?"
    r"(?:now|these days|nowadays)\s*,?\s*(?P<now>(?:I|i)(?:'m|’m| am)?\s+[^,.;!?]{2,60}))",
)
_THEN_NOW_ZH_RE = re.compile(
    r"(?P<quote>我(?P<when>以前|之前|过去|原来|小时候|从前)(?P<then>[^，,。！？!?；;]{2,30})[，,；;]\s*"
    r"(?:(?:但是?|可是|不过|而)\s*)?(?:我)?(?:现在|如今|这几年|后来)(?:我)?(?P<now>[^，,。！？!?；;]{1,30}))"
)


class Rewrite(NamedTuple):
    """What a sentence read whole says, and the part of it whose clause-by-clause readings it replaces."""

    replaces: str
    said: tuple[tuple[str, str], ...]  # (quote, statement)


def then_and_now_en(sentence: str) -> Rewrite | None:
    """The change in "I used to …, (but) now I …"; None when the sentence says no such change."""
    m = _THEN_NOW_EN_RE.search(sentence)
    if not m or "?" in sentence:
        return None
    now = to_third_person_en(m.group("now").strip())
    if not now.startswith("User "):
        return None
    then = to_third_person_en(f"I used to {m.group('then').strip()}")
    said = (m.group("quote").strip(), f"{then}, but now {now[len('User '):]}")
    return Rewrite(replaces=sentence[m.start("quote"):m.end("then")], said=(said,))


def then_and_now_zh(sentence: str) -> Rewrite | None:
    """The change in 我以前…，现在…; None when the sentence says no such change."""
    m = _THEN_NOW_ZH_RE.search(sentence)
    if not m or re.search(r"[吗呢？?]", m.group("quote")):
        return None
    # "现在用户住在上海" reads as a second subject: the first 用户 carries on
    statement = re.sub(r"(现在|如今|这几年|后来)用户", r"\1", to_third_person_zh(m.group("quote")))
    return Rewrite(replaces=sentence[m.start("quote"):m.end("then")], said=((m.group("quote"), statement),))
