"""Categories by their definitions, after the keyword rules of english.py / chinese.py have guessed.

- emotion: how the user feels. "User misses home", "用户很想家" are feelings, not facts about the user;
- event: something that happens at a time, planned or past. "User is going hiking with their friends
  this weekend" is a plan, not a relation, though it names friends; a relation says who someone is to
  the user ("User's sister is named Anna", "User is married to Sam").
"""
from __future__ import annotations

import re

from dreaming.engine.dates import is_plan

_FEELING_RE = re.compile(
    r"^(?:the )?user (?:(?:is|was|has been|feels|felt|has felt|gets|got|is feeling|has been feeling|still|so|very|"
    r"really|a bit|quite|always)\s+)*(?:homesick|miss(?:es|ed)? (?:home|(?:their|his|her) (?:home|hometown|"
    r"home country|family|old life|country))|lonely|heartbroken|nostalgic)\b"
    r"|^用户(?:很|非常|特别|有点|有些|总是|经常|最近|一直)*(?:想家|思乡|想念家乡|想念家人|孤单|孤独|寂寞)",
    re.I,
)
# What makes a statement a relation whatever else it says: who someone is to the user.
_DEFINES_RELATION_RE = re.compile(
    r"\b(?:named|called|married|engaged|divorced|dating|is (?:the )?user's|are (?:the )?user's|has (?:a|an|two|three|"
    r"\d+) (?:\w+ )?(?:sisters?|brothers?|sons?|daughters?|kids|children|siblings?))\b|叫|结婚|订婚|离婚|恋爱",
    re.I,
)


def category_by_definition(*, statement: str, category: str) -> str:
    if category != "emotion" and _FEELING_RE.search(statement):
        return "emotion"
    if category == "relation" and is_plan(statement) and not _DEFINES_RELATION_RE.search(statement):
        return "event"
    return category
