"""Categories by their definitions, after the keyword rules of english.py / chinese.py have guessed.

- emotion: how the user feels. "User misses home", "用户很想家" are feelings, not facts about the user;
- event: something that happens at a time, planned or past. "User is going hiking with their friends
  this weekend" is a plan, not a relation, though it names friends; a relation says who someone is to
  the user ("User's sister is named Anna", "User is married to Sam").
"""
from __future__ import annotations

import re

from dreaming.engine.dates import is_plan
from dreaming.engine.chinese import category_zh
from dreaming.engine.english import category_en

_FEELING_RE = re.compile(
    r"^(?:the )?user (?:(?:is|was|has been|feels|felt|has felt|gets|got|is feeling|has been feeling|still|so|very|"
    r"really|a bit|quite|always)\s+)*(?:homesick|miss(?:es|ed)? (?:home|(?:their|his|her) (?:home|hometown|"
    r"home country|family|old life|country))|lonely|heartbroken|nostalgic)\b"
    r"|^用户(?:很|非常|特别|有点|有些|总是|经常|最近|一直)*(?:想家|思乡|想念家乡|想念家人|孤单|孤独|寂寞)",
    re.I,
)
# The user's own feeling, whoever it is about: "User is so happy for their brother", "User is worried about
# their mum", "用户为自己的哥感到高兴", "用户搬到这里以后觉得很孤单" (a feeling, not a move).
_FEELS_RE = re.compile(
    r"^(?:the )?user (?:is|was|feels|felt|has been|is feeling|gets|got)(?: (?:so|very|really|a bit|quite|kind of|super|"
    r"incredibly|extremely|truly|pretty|a little|always|still|getting))* (?:happy|proud|worried|excited|sad|nervous|"
    r"anxious|scared|stressed|upset|thrilled|grateful|relieved|disappointed|jealous|angry|frustrated|overwhelmed|"
    r"lonely|heartbroken|homesick|ecstatic|devastated)\b"
    r"|^用户(?!的)[^，。,]{0,14}?(?:感到|觉得|感觉)(?:很|非常|特别|真|好|有点|有些|太|挺|十分)*(?:高兴|开心|快乐|难过|伤心|"
    r"孤单|孤独|寂寞|焦虑|紧张|害怕|担心|失望|骄傲|自豪|幸福|沮丧|委屈|激动|兴奋)",
    re.I,
)
# "since they were a kid" says when, not who: "User has been swimming since they were a kid" is no relation.
_CHILDHOOD_RE = re.compile(r"\b(?:since|when) (?:they were|user was) (?:a |an )?(?:kid|child|baby|boy|girl|teen)\b", re.I)
# "User goes climbing every Saturday with friends" is a habit done with someone, not who someone is to the user.
_DONE_WITH_RE = re.compile(r"^user (?!(?:(?:still|also|now|just|usually|often|always|sometimes|currently) )?"
                           r"(?:is|was|has|had|lives?|lived|married|dates|and)\b)[a-z]+\b", re.I)
_WITH_SOMEONE_RE = re.compile(r"\s+with (?:their |his |her |a few |some |a |an |the |two |three )?(?:\w+ )?\w+\b"
                              r"|(?<=[^的])(?:和|跟|与)(?:几个|一群)?(?:朋友|家人|同事|同学|室友|孩子|老公|老婆|男朋友|女朋友)(?:们)?(?:一起)?",
                              re.I)
_DONE_WITH_ZH_RE = re.compile(r"^用户(?!的|是|有|跟[^，。]{1,6}住|和[^，。]{1,6}住)[^，。]{0,8}?(?:和|跟|与)")
# What makes a statement a relation whatever else it says: who someone is to the user.
_DEFINES_RELATION_RE = re.compile(
    r"\b(?:named|called|married|engaged|divorced|dating|broke up with|separated from|is (?:the )?user's|are (?:the )?user's|has (?:a|an|two|three|"
    r"\d+) (?:\w+ )?(?:sisters?|brothers?|sons?|daughters?|kids|children|boys|girls|siblings?))\b|叫|结婚|订婚|离婚|恋爱",
    re.I,
)


# Someone who is someone to the user: "User's wife", "their kids", "User has kids", "User is a mother of two".
# A kin word with no such tie names people of the world ("User delivers babies", "User organized a toy drive for kids
# in need", "User is a 1980 kid", "User loves new kids on the block"): no relation of the user's.
# Only the words often said of people in general: "family", "parents", "mom" said bare are the user's own in chat.
_KIN_WORDS = r"(?:kids?|child|children|bab(?:y|ies)|friends?|boss|neighbou?rs?|twins?)"
_KIN_RE = re.compile(rf"\b{_KIN_WORDS}\b", re.I)
_TIED_KIN_RE = re.compile(
    rf"\b(?:user's|their|our|has|have|had|having|the wife and|the husband and|the missus and|with the|for the)\s+"
    rf"(?:[\w'-]+\s+){{0,3}}?{_KIN_WORDS}\b|\b{_KIN_WORDS}\s+(?:is|are|was|were) (?:the )?user's\b|"
    rf"\b(?:only child|friends with|a friend of)\b|^user and (?:their|a|an|the) ",
    re.I,
)


def category_by_definition(*, statement: str, category: str) -> str:
    if category != "emotion" and (_FEELING_RE.search(statement) or _FEELS_RE.search(statement)):
        return "emotion"
    if category == "relation" and not _DEFINES_RELATION_RE.search(statement):
        category = _without_whom(statement) or category
    if category == "relation" and statement.startswith("User") and _KIN_RE.search(statement) \
            and not _DEFINES_RELATION_RE.search(statement) and not _TIED_KIN_RE.search(statement):
        category = category_en(_KIN_RE.sub(" ", statement))  # "User delivers babies": a job, no relation
    if category == "relation" and is_plan(statement) and not _DEFINES_RELATION_RE.search(statement):
        return "event"
    return category


def _without_whom(statement: str) -> str | None:
    """The category of what a relation-worded statement says once the kin word that only says when ("when they were a
    kid") or with whom ("goes climbing with friends") is set aside; None when it is not worded so."""
    if _CHILDHOOD_RE.search(statement):
        return category_en(_CHILDHOOD_RE.sub("", statement))
    chinese = bool(_DONE_WITH_ZH_RE.match(statement))
    if not (chinese or _DONE_WITH_RE.match(statement)) or not _WITH_SOMEONE_RE.search(statement):
        return None
    rest = _WITH_SOMEONE_RE.sub("", statement)
    return category_zh(rest) if chinese else category_en(rest)
