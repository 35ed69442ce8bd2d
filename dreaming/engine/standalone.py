"""Whether a statement, read alone in MEMORY.md months later, still says something.

A memory is read without the conversation it came from. Some statements lean on words they do not carry:
- a third-person pronoun or "this"/"that" as the subject, nothing resolved it (resolve.py runs first): "He chewed
  User's favorite shoes yesterday", "It's quieter, User loves it", "This is User's go-to place for writing";
- a verb and a pronoun object and nothing else: "User liked it", "User's roommate has one", "User misses her";
- a request still: "Make a workout plan for User's daughter" (what it names about the user, self_disclosure.py
  states on its own);
- a comparison without its subject: "Better than User expected";
- a verb left alone once the fillers went: "User goes", "User wants to" (english_clause.EMPTY_STATEMENT_RE);
- an auxiliary standing for a verb the other side said: "User wishes they could", "User can not", "Yeah User did";
- taking leave of the chat: "User has to run now", "User will go now, see ya", "Been a pleasure, hope User helped".
"""
from __future__ import annotations

import re

from dreaming.engine.english_clause import EMPTY_STATEMENT_RE
from dreaming.engine.language import content_tokens

_REQUEST_STATEMENT_RE = re.compile(r"^(?:please\s+)?(?:make|write|create|generate|give|tell|help|list|draft|compose|"
                                   r"suggest|explain|describe|translate|summari[sz]e|rewrite|design|plan)\b", re.IGNORECASE)

_PRONOUN_SUBJECT_RE = re.compile(r"^(?:He|She|It|They|This|That|These|Those|His|Her|Its|Their)\b(?!-)")
# "It's User's birthday today", "It has been two years since User moved": the "it" of a time, which needs nothing.
_TIME_IT_RE = re.compile(r"^It(?:'s|’s| is| was| will be)\s+(?:User's\s+(?:\w+\s+)?(?:birthday|anniversary|wedding|"
                         r"graduation|day off|first day|last day)|(?:been|\w+ (?:years?|months?|weeks?|days?)) .*\bsince\b)"
                         r"|^It(?:'s|’s| has) been .*\bsince\b")

# "Better than User expected", "More fun than User thought": a comparison whose subject stayed in the chat.
_NO_SUBJECT_RE = re.compile(r"^(?:(?:much|way|a lot|even|so)\s+)?(?:more\s+|less\s+)?[A-Za-z]+\s+than\s+User\b",
                            re.IGNORECASE)

_PRONOUN_OBJECT_RE = re.compile(
    r"^(?P<head>User(?:'s\s+[\w ]+?)?\s+.+?)\s+(?:it|her|him|them|one|that|this)"
    r"(?:\s+(?:a lot|too|as well|so much|very much|anymore|again|now|though|all the time))?$"
)
_PRONOUNS = frozenset("it her him them one that this".split())

# "I wish I could", "I know I can not either", "Sadly yeah I did": the verb stayed in the other side's words.
# (Not "… things to do", "… all I can do": there "do" is the verb itself.)
_ELLIPTICAL_END_RE = re.compile(
    r"\b(?:could|can|can not|cannot|can't|did|didn't|does|doesn't|(?<!\bto )(?<!\bcan )do|don't|will|won't|would|"
    r"wouldn't|should|shouldn't)(?:\s+(?:too|either|as well|though|again))?$",
    re.IGNORECASE,
)
# Leaving the chat is not something to remember about the user.
_LEAVING_RE = re.compile(
    r"\b(?:see ya|see you|bye|take care|cheers|nice (?:chatting|talking)|hope User helped|been a pleasure)\b|"
    r"^User (?:will|has to|must|needs to|should|is going to|is gonna) (?:go|run|leave|head out|get going|sign off)"
    r"(?:\s+(?:now|soon))?$|^User (?:was|got) cut off$",
    re.IGNORECASE,
)


def says_nothing_alone(statement: str) -> bool:
    """True when the statement, read alone, says nothing about the user (see the module docstring)."""
    if EMPTY_STATEMENT_RE.match(statement) or _REQUEST_STATEMENT_RE.match(statement) or _NO_SUBJECT_RE.match(statement):
        return True
    # a short one only: in "User's kids have so much and others don't" the ellipsis is someone else's
    if (_ELLIPTICAL_END_RE.search(statement) and len(statement.split()) <= 5) or _LEAVING_RE.search(statement):
        return True
    if _PRONOUN_SUBJECT_RE.match(statement) and not _TIME_IT_RE.match(statement):
        return True
    m = _PRONOUN_OBJECT_RE.match(statement)
    if not m:
        return False
    said = [t for t in content_tokens(m.group("head")) if t not in _PRONOUNS]
    return len(said) <= 1
