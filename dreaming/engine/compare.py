"""Comparing candidate statements with existing memories, and merging near-duplicates, by rules.

Similarity alone never makes a contradiction: a contradiction needs explicit evidence, either the same
slot with a different value (lives in X / moved to Y, works at X / Y, favourite X is A / B) or a
negation of what the memory says ("no longer", "not anymore", 不再, likes X / hates X).
"""
from __future__ import annotations

import re

from dreaming.engine.language import content_tokens, is_chinese
from dreaming.providers.base import Comparison, MemoryRef

REINFORCE_AT = 0.6

_V = r"(?P<v>[^,.;!?，。；！？]+)"
_SLOTS_EN = [
    ("residence", re.compile(rf"\b(?:lives|lived|is living|living|moved|has moved|relocated|resides|is based)"
                             rf" (?:back )?(?:in|to|at|into) {_V}", re.I)),
    ("workplace", re.compile(rf"\b(?:works|worked|is working|started working|got a job) (?:at|for) {_V}", re.I)),
    ("occupation", re.compile(rf"\b(?:works as|is working as|job is|profession is) {_V}", re.I)),
    ("school", re.compile(rf"\b(?:studies|is studying|goes to school) (?:at|in) {_V}", re.I)),
    ("name", re.compile(r"\bname is (?P<v>\w+)", re.I)),
    ("age", re.compile(r"\bis (?P<v>\d{1,3})(?: years old|\b)", re.I)),
    ("status", re.compile(r"\bis (?P<v>married|single|divorced|engaged|widowed)\b", re.I)),
]
_FAVOURITE_EN = re.compile(rf"\bfavou?rite (?P<k>\w+(?: \w+)?) is {_V}", re.I)
_SLOTS_ZH = [
    ("residence", re.compile(r"(?:住在|搬到了?|搬去了?|定居在?|现在在)(?P<v>[\u4e00-\u9fffA-Za-z]{1,12}?)(?:了|住|生活|$|[，。])")),
    ("workplace", re.compile(r"在(?P<v>[\u4e00-\u9fffA-Za-z]{1,12}?)(?:工作|上班)")),
    ("occupation", re.compile(r"(?:职业是|工作是|是一名|是一个|当)(?P<v>[\u4e00-\u9fff]{1,8}?)(?:$|[，。了])")),
    ("name", re.compile(r"(?:用户)?叫(?P<v>[\u4e00-\u9fffA-Za-z]{2,4})$")),
    ("age", re.compile(r"(?P<v>\d{1,3})岁")),
]
_FAVOURITE_ZH = re.compile(r"最喜欢的(?P<k>[\u4e00-\u9fff]{1,4})是(?P<v>[\u4e00-\u9fffA-Za-z]{1,12})")

_NEGATION_RE = re.compile(
    r"\b(?:no longer|not anymore|any ?more|stopped|quit|gave up|used to|doesn't|does not|isn't|is not|"
    r"hasn't|has not|never|not)\b|不再|已经不|不[喜爱是住在]|没有再|戒了|放弃了|以前",
    re.I,
)
_POSITIVE_RE = re.compile(r"\b(?:likes|loves|enjoys|adores|prefers)\b|喜欢|热爱|爱", re.I)
_NEGATIVE_RE = re.compile(r"\b(?:hates|dislikes|can't stand|doesn't like|does not like|doesn't enjoy)\b|讨厌|不喜欢|不爱", re.I)
_FUNCTION_WORDS = frozenset(
    "no longer anymore any more stopped quit gave used doesn't isn't hasn't never not likes loves enjoys "
    "hates dislikes prefers like love enjoy hate".split()
)


def similarity(a: str, b: str) -> float:
    """Dice overlap of content tokens (English words, Chinese character bigrams)."""
    ta, tb = set(content_tokens(a)), set(content_tokens(b))
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


def _slots(text: str) -> dict[str, str]:
    found = {}
    for name, pattern in _SLOTS_EN + _SLOTS_ZH:
        m = pattern.search(text)
        if m:
            found.setdefault(name, m.group("v").strip().lower())
    for pattern in (_FAVOURITE_EN, _FAVOURITE_ZH):
        m = pattern.search(text)
        if m:
            found[f"favourite {m.group('k').lower()}"] = m.group("v").strip().lower()
    return found


def _values_differ(a: str, b: str) -> bool:
    if a == b or a in b or b in a:
        return False
    return similarity(a, b) < 0.5


def _topic(text: str) -> set[str]:
    return {t for t in content_tokens(text) if t not in _FUNCTION_WORDS}


def _contradiction(statement: str, memory: str) -> str | None:
    if is_chinese(statement) != is_chinese(memory):
        return None  # "lives in Berlin" vs "住在北京": values in two languages cannot be compared by rules
    new_slots, old_slots = _slots(statement), _slots(memory)
    for slot, value in new_slots.items():
        if slot in old_slots and _values_differ(value, old_slots[slot]):
            return f"same {slot}, different value: '{old_slots[slot]}' → '{value}'"
    shared = _topic(statement) & _topic(memory)
    if not shared:
        return None
    topic_overlap = len(shared) / max(1, min(len(_topic(statement)), len(_topic(memory))))
    if topic_overlap < 0.75:  # "not a fan of cats" vs "has two cats" share a word, not a topic
        return None
    new_neg, old_neg = bool(_NEGATION_RE.search(statement)), bool(_NEGATION_RE.search(memory))
    if new_neg != old_neg:
        return "negates: " + ", ".join(sorted(shared)[:3])
    if (_POSITIVE_RE.search(statement) and _NEGATIVE_RE.search(memory)) or (
        _NEGATIVE_RE.search(statement) and _POSITIVE_RE.search(memory) and not _NEGATIVE_RE.search(statement)
    ):
        return "opposite preference about " + ", ".join(sorted(shared)[:3])
    return None


def compare_statements(statements: list[str], memories: list[MemoryRef]) -> list[Comparison]:
    results = []
    for index, statement in enumerate(statements):
        best: tuple[float, MemoryRef] | None = None
        contradiction: tuple[MemoryRef, str] | None = None
        for memory in memories:
            score = similarity(statement, memory.statement)
            reason = _contradiction(statement, memory.statement)
            if reason and contradiction is None:
                contradiction = (memory, reason)
            if best is None or score > best[0]:
                best = (score, memory)
        if contradiction:
            memory, reason = contradiction
            results.append(Comparison(index=index, relation="contradicts", memory_id=memory.id, reason=reason))
        elif best and best[0] >= REINFORCE_AT:
            results.append(Comparison(index=index, relation="reinforces", memory_id=best[1].id,
                                      reason=f"same content (overlap {best[0]:.2f})"))
        else:
            results.append(Comparison(index=index, relation="new", reason="no matching memory"))
    return results


_SPECIFIC_RE = re.compile(r"\d|\b[A-Z][a-z]+|《|叫|named|called")


def merge_statements(statements: list[str]) -> str:
    """The statement best supported by the others and most specific (deterministic)."""
    candidates = [s.strip() for s in statements if s and s.strip()]
    if not candidates:
        return ""

    def score(item: tuple[int, str]) -> tuple[float, int]:
        i, s = item
        support = sum(similarity(s, o) for j, o in enumerate(candidates) if j != i)
        specific = len(_SPECIFIC_RE.findall(s[1:]))
        return (support + 0.3 * specific + 0.02 * len(set(content_tokens(s))), -i)

    return max(enumerate(candidates), key=score)[1]
