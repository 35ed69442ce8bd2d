"""The importance light sleep gives a clause, the one rule of the engine: a base by category, more for names, numbers
and what lasts, less for a word or two, for a statement built from the assistant's words, and for what the user
is doing this minute."""
from __future__ import annotations

from dreaming.engine import chinese as zh
from dreaming.engine import english as en
from dreaming.engine.language import content_tokens

BASE_IMPORTANCE = {"relation": 0.6, "fact": 0.55, "preference": 0.5, "event": 0.4, "emotion": 0.35}


def clause_importance(*, category: str, quote: str, chinese: bool, user_initiated: bool) -> float:
    value = BASE_IMPORTANCE[category]
    specific = zh.SPECIFIC_ZH_RE if chinese else en.SPECIFIC_EN_RE
    long_lived = zh.LONG_LIVED_ZH_RE if chinese else en.LONG_LIVED_EN_RE
    value += min(0.2, 0.1 * len(specific.findall(quote)))
    if long_lived.search(quote):
        value += 0.1
    size = len(content_tokens(quote))
    if size >= 4:
        value += 0.05
    if size <= 1:
        value -= 0.1
    if not user_initiated:
        value -= 0.1  # a statement built from the assistant's words ("Me too!"); see extract._turn_clauses
    if not chinese and en.EN_RIGHT_NOW_RE.match(quote):
        value -= 0.15  # what the user is doing this minute is small talk
    return round(min(0.95, max(0.05, value)), 2)
