"""A detail said after a comma stays with the clause it belongs to, in Chinese and English.

"我正在准备考研，目标是复旦" kept "用户正在准备考研" and lost the school; "我在准备雅思，需要考到7分" lost the score;
"我是北京大学大二的学生，学的是计算机" lost the subject studied. A second clause that opens with 目标是 / 学的是 /
需要考到 … says more of the first one, and alone ("用户的目标是复旦") it would not say of what. Read together:
"用户正在准备考研，目标是复旦". English does the same with a second "I": "I play tennis on Sundays, I'm pretty
average" kept "User is average", which says nothing of what; "I'm preparing for IELTS, I need a 7" kept "User
needs a 7". Read together: "User plays tennis on Sundays, and is pretty average at it".
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite
from dreaming.engine.third_person import to_third_person_en, to_third_person_zh

_DETAIL_ZH_RE = re.compile(
    r"(?P<first>我(?!们)[^，,。！？!?；;]{2,24})[，,]\s*"
    r"(?P<detail>(?:目标是|目标分数是|学的是|读的是|主修|专业是|需要考到|要考到|想考到?|希望考到|考了|分数是|"
    r"水平(?:还)?(?:一般|不错|很好|很差|中等|业余)|在[\u4e00-\u9fff]{2,8}(?:读|上学|念书)|"
    r"(?:大概|大约|差不多)?(?:要|需要|得)?[\d一二两三四五六七八九十半]+(?:个)?(?:多)?(?:小时|分钟))[^，,。！？!?；;]{0,16})"
)


def detail_after_zh(sentence: str) -> Rewrite | None:
    m = _DETAIL_ZH_RE.search(sentence)
    if not m or re.search(r"[吗呢？?]", m.group(0)):
        return None
    quote = m.group(0)
    return Rewrite(replaces=m.group("first"), said=((quote, to_third_person_zh(quote)),))


# how good the user is at it; a bare "I'm good" / "I'm ok" is how they are today, not a level
_ADVERB = r"(?:pretty|quite|fairly|really|very|kind of|kinda|still|only|just|not (?:very|that|too))"
_LEVEL = (rf"(?:{_ADVERB}\s+)?(?:average|decent|rusty|mediocre|not great|an? (?:complete |total )?"
          rf"(?:beginner|intermediate|advanced|amateur|novice)(?: player| level)?)|{_ADVERB}\s+(?:good|bad|terrible|okay|ok)")
_DETAIL_EN_RE = re.compile(
    rf"(?P<first>\b(?:I|i)(?:'m|’m|'ve|’ve| am| have)? [a-z][^,.;!?]{{3,60}}),\s*(?P<conj>but |and )?"
    rf"(?P<detail>(?:I'm|I’m|I am) (?:{_LEVEL})(?: at it)?|(?:I|i) need (?:a |an )?\d(?:\.\d)?(?: overall| or (?:above|higher|more))?)"
    r"(?=\s*(?:[.!;]|$))"
)


def detail_after_en(sentence: str) -> Rewrite | None:
    m = _DETAIL_EN_RE.search(sentence)
    if not m or "?" in sentence:
        return None
    first = to_third_person_en(m.group("first"))
    detail = to_third_person_en(re.sub(r"^(?:I'm|I’m|I am)", "I am", m.group("detail")))[len("User "):]
    joined = f"{first}, {(m.group('conj') or 'and ').strip()} {detail}{' at it' if detail.startswith('is ') and not detail.endswith('at it') else ''}"
    return Rewrite(replaces=m.group(0), said=((m.group(0), joined),))
