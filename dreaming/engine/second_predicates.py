"""A second thing the user says of themself after a comma, as a statement of its own.

"I am a 24 year old woman from argentina, living in australia" tells two things: who the user is and where
they live. Read as one statement it is long, and a memory of it answers neither question well. When the
statement is "User is / was / has been …" and what follows the comma is a new predicate of the same "User" —
a participle ("living in australia", "hoping to move out soon") or a noun phrase that names what the user is
("a senior citizen", "big fan of beethoven") after a head that says what the user is, not what they do or
where — the engine keeps both: "User is a 24 year old woman from argentina" and "User is living in australia".

Not split: a statement about someone else ("User's sister makes a ton of money, dancing on poles" — the
dancing is the sister's), a list ("User likes beaches, hiking, learning new languages"), a verb of liking
before the comma (what follows is what is liked: "User loves the crowds, getting to know people"), a tail
that only comments ("…, thanks for asking", "…, probably too much").
"""
from __future__ import annotations

import re

# The head: the user as subject of "be", nothing liked or listed before the comma.
_HEAD_RE = re.compile(r"^(?P<head>User (?:is|was|has been)\b(?:(?!,| and ).){2,80}?)\s*,\s+(?P<tail>.+)$")
# A participle that opens a clause of its own, not a noun ("thing", "morning", "wedding": see answers._DOING_RE).
_PARTICIPLE_RE = re.compile(
    r"^(?!(?:thing|something|nothing|anything|everything|wedding|building|morning|evening|spring|king|ring|"
    r"string|ceiling|clothing|feeling|meeting|painting|drawing|sibling|being|darling)\b)[a-z]{3,}ing\b\s+\w",
)
# What the user is: "a senior citizen", "an only child", "big fan of beethoven", "huge nerd".
_WHAT_RE = re.compile(r"^(?:(?:a|an)\s+(?!bit\b|little\b|lot\b|few\b|couple\b)|(?:big|huge|avid|die[- ]hard)\s+"
                      r"(?=fan\b|nerd\b|reader\b|gamer\b))\w")
# A tail that comments on what was said rather than saying more of the user.
_COMMENT_RE = re.compile(r"^(?:thanks|thank|probably|maybe|lol|haha|though|tho|too|also|so|but|and|which|that|who|"
                         r"it|they|he|she|we|you|not|no|just|only|like|such as|especially|including|except)\b",
                         re.IGNORECASE)
_MAX_TAIL_WORDS = 10
# "User is alright, just taking a break": how the user is today, small talk on both sides of the comma; and a
# head that is no predicate at all ("I'm enjoy, hiking and biking").
_NO_HEAD_RE = re.compile(r"^User (?:is|was) (?:(?:just|doing|pretty|so|very|really)\s+)?(?:alright|all right|ok|okay|good|"
                         r"fine|great|well|tired|busy|enjoy|like|love|prefer)$", re.IGNORECASE)

# A noun-phrase tail names what the user is after a head that says what they are ("User is a nurse, a mother of
# two", "User is kind of old, a senior citizen"); after "User is reading a new book" or "User is from Ohio", "a thriller by Harlan
# Coben" and "a small state" say what the book or the place is.
_DOING_OR_WHERE_HEAD_RE = re.compile(
    r"^User (?:is|was|has been) (?:(?:just|currently|still|now)\s+)?(?:[a-z]{2,}ing|from|in|at|on|into|with|for|near|to|"
    r"about|by|under|over)\b")


def second_predicates(statement: str) -> list[str]:
    """The statement, or the statement cut at its comma plus "User is <tail>" when the tail is a second
    predicate of the user (see the module docstring)."""
    m = _HEAD_RE.match(statement)
    if not m:
        return [statement]
    head, tail = m.group("head").rstrip(" ,"), m.group("tail").strip(" .!")
    if "," in tail or len(tail.split()) > _MAX_TAIL_WORDS or _COMMENT_RE.match(tail) or _NO_HEAD_RE.match(head):
        return [statement]
    if _PARTICIPLE_RE.match(tail):
        return [head, f"User is {tail}"]
    if _WHAT_RE.match(tail) and not _DOING_OR_WHERE_HEAD_RE.match(head):
        article = "" if re.match(r"(?:a|an)\s", tail) else ("an " if tail[0] in "aeiou" else "a ")
        return [head, f"User is {article}{tail}"]
    return [statement]
