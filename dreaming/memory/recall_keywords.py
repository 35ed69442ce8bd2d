"""Recall's keywords: the query's content words matched verbatim beside the vectors (names, dates and numbers are
where embeddings are weakest)."""
from __future__ import annotations

import re

from dreaming.engine.language import CJK_RUN_RE

MAX_KEYWORDS = 8


# --- Keywords for the text match ---------------------------------------------------------
# Exact names, dates and numbers are where embeddings are weakest, so the query's content words
# are matched verbatim (case-insensitive substring, so it works for Chinese without a tokenizer).
_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being both but by can
    could did do does doing done for from had has have having he her here hers him his how i if in into is
    it its just know like likes me more most my no not now of on or our out over remember said say she so
    some such tell than that the their them then there these they this those to too up us user user's
    very was we were what when where which while who whom why will with would you your yours""".split()
)
_ZH_STOP = frozenset("用户 什么 怎么 哪里 哪个 为什么 我们 你们 他们 她们 是不是 有没有 记得 知道 告诉 一下 喜欢吗 的 了 吗 呢 吧 啊 是 我 你 他 她 在 有 和 也 都 就 还".split())
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def query_keywords(query: str) -> list[tuple[str, float]]:
    """(keyword, weight): names (capitalised) and numbers of 2+ digits weigh 2, other content words 1.

    Chinese runs are cut into overlapping two-character pieces (most Chinese words and names
    are two characters), minus a few function words.
    """
    found: dict[str, float] = {}
    for position, match in enumerate(_WORD_RE.finditer(query)):
        word = match.group()
        for run in CJK_RUN_RE.findall(word):
            pieces = [run] if len(run) <= 2 else [run[i : i + 2] for i in range(len(run) - 1)]
            for piece in pieces:
                if piece not in _ZH_STOP and not all(ch in _ZH_STOP for ch in piece):
                    found.setdefault(piece, 1.0)
        latin = CJK_RUN_RE.sub(" ", word).strip()
        for token in latin.split():
            lowered = token.lower()
            # Single digits ("7") and two-letter words match inside too many statements.
            if lowered in _STOPWORDS or len(token) < (2 if token.isdigit() else 3):
                continue
            # A capital at the very start of the question is grammar, not a name.
            is_name = token[:1].isupper() and (position > 0 or token.isupper())
            weight = 2.0 if is_name or token.isdigit() else 1.0
            found[lowered] = max(found.get(lowered, 0.0), weight)
    # Prefer the heaviest keywords when a long question has too many.
    ranked = sorted(found.items(), key=lambda item: -item[1])
    return ranked[:MAX_KEYWORDS]
