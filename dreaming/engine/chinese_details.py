"""A detail said after a comma without a subject stays with the clause it belongs to.

"我正在准备考研，目标是复旦" kept "用户正在准备考研" and lost the school; "我在准备雅思，需要考到7分" lost the score;
"我是北京大学大二的学生，学的是计算机" lost the subject studied. A second clause that opens with 目标是 / 学的是 /
需要考到 … says more of the first one, and alone ("用户的目标是复旦") it would not say of what. Read together:
"用户正在准备考研，目标是复旦".
"""
from __future__ import annotations

import re

from dreaming.engine.then_and_now import Rewrite
from dreaming.engine.third_person import to_third_person_zh

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
