"""A couple that parts or marries, told with the other one first: "Chris and I broke up", "我和小林分手了".

Read clause by clause, "Chris and I broke up" loses Chris at the "and I" split ("User broke up"), and 我和小林分手了
has no clause the rules read at all. Read whole, the sentence says who: "User broke up with Chris", 用户和小林分手了,
"User got engaged to Sam". Deep sleep then ends what the user had said of that partner (engine.endings).
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite

_PARTNER = r"(?:boyfriend|girlfriend|partner|husband|wife|fianc[eé]e?|bf|gf)"
_COUPLE_EN_RE = re.compile(
    rf"(?:\b(?P<who>(?:[Mm]y {_PARTNER}(?: [A-Z][a-z]+)?|(?-i:[A-Z][a-z]+)))(?: and I| & I)|"
    rf"\b(?:[Mm]e|I) (?:and|&) (?P<who2>(?:my {_PARTNER}(?: [A-Z][a-z]+)?|(?-i:[A-Z][a-z]+)))) "
    r"(?:have |had |just |finally |officially |recently |also )*"
    r"(?P<verb>broke up|split up|separated|got divorced|are getting divorced|are divorced|called it quits|"
    r"got engaged|got married)\b"
)
_PARTING_ZH_RE = re.compile(r"我(?:和|跟)(?P<who>[\u4e00-\u9fffA-Za-z]{1,5}?)(?:已经|刚刚?|终于|上个?月|上周|去年)?"
                            r"(?P<verb>分手了|离婚了|订婚了|结婚了)")
_NOT_A_NAME = frozenset("So Then And But Now Today Yesterday Also Well Oh Yeah Yes Me Mom Dad".split())


def _en_statement(who: str, verb: str) -> str:
    who = re.sub(r"^[Mm]y\b", "their", who)
    who = re.sub(r"\bgf\b", "girlfriend", re.sub(r"\bbf\b", "boyfriend", who))
    if verb in ("broke up", "split up", "called it quits"):
        return f"User broke up with {who}"
    if verb in ("got divorced", "are divorced", "are getting divorced"):
        return f"User {'is getting' if 'getting' in verb else 'got'} divorced from {who}"
    if verb == "separated":
        return f"User separated from {who}"
    return f"User {verb} to {who}"


def couple_en(sentence: str) -> Rewrite | None:
    m = _COUPLE_EN_RE.search(sentence)
    who = m and (m.group("who") or m.group("who2"))
    if not m or "?" in sentence or who in _NOT_A_NAME:
        return None
    return Rewrite(replaces=sentence[m.start():].rstrip(" .!"), said=((m.group(0), _en_statement(who, m.group("verb"))),))


def couple_zh(sentence: str) -> Rewrite | None:
    m = _PARTING_ZH_RE.search(sentence)
    if not m or re.search(r"[吗呢？?]", sentence) or m.group("who") in ("你", "他", "她", "我们"):
        return None
    quote = m.group(0)
    return Rewrite(replaces=quote, said=((quote, "用户" + quote[1:]),))
