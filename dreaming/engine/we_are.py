"""What "we are …" and "our <someone or something> …" say of the user, beside english_clause's "we have / we went".

"Yeah, well, we are farmers" → "User is a farmer", "we're both nurses at the county hospital" → "User is a nurse at
the county hospital": the user is one of "we", so what all of them are the user is.
"We are from india" → "User is from india". "Our scorpion pit is located in the basement", "Our daughter plays
sax" → "User's scorpion pit …", "User's daughter …": what is the household's is the user's, read as a "my …"
clause would be. Not the things the user shares with the other side ("our chat", "our world"), nor what "we"
feel or do this minute ("we are so excited", "we are going to get along well").
"""
from __future__ import annotations

import re

from dreaming.engine import english as en

# "we are both farmers", "we're all teachers": a plural noun naming what one is (the suffixes of roles and trades,
# and a few words without them).
_WE_ARE_ROLE_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e're|[Ww]e’re)(?:\s+are)?\s+(?:(?:both|all|also|still|just|now|actually)\s+)*"
    r"(?P<x>(?:(?!(?:so|very|really|too|not|going|getting|having|doing)\b)[a-z][\w-]*\s+){0,2}?)"
    r"(?P<noun>[a-z]+(?:ers|ors|ists|ians|ans|ants|ents|ics|ees)|vegans|vegetarians|nurses|doctors|parents|"
    r"grandparents|retirees|chefs|cooks|twins|immigrants|expats|christians|muslims|catholics|athletes|artists|"
    r"musicians|veterans|vets)(?P<rest>\s+(?:at|in|for|on|from)\s+[\w' -]{2,40})?$"
)
_NOT_A_ROLE = frozenset("others ours answers others matters centers corners orders letters numbers papers".split())
# "We are from india", "we're originally from Ohio".
_WE_ARE_FROM_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e're|[Ww]e’re)(?:\s+are)?\s+(?:(?:both|all|originally|actually)\s+)*from\s+"
    r"(?P<place>(?!(?:the same|here|there|around|different)\b)[\w' -]{2,40})$"
)
# What "our" shares with the other side, not the user's own.
# "we've been married for 7 years", "we got married in 2015", "we're engaged": the couple is the user's own.
_WE_COUPLE_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e've|[Ww]e’ve|[Ww]e're|[Ww]e’re)(?:\s+(?:have|are|were|got))?\s+"
    r"(?:(?:both|now|just|finally|also|officially|happily)\s+)*"
    r"(?P<been>been\s+)?(?P<state>married|together|engaged|dating|divorced)(?:\s+now)?"
    r"(?P<rest>\s+(?:for|since|in|last|this|about|almost|over|nearly)\s+[\w' -]{1,40})?$"
)
_SHARED_RE = re.compile(r"^[Oo]ur\s+(?:conversation|chat|talk|friendship|world|planet|country|society|generation|"
                        r"time|times|lives|own|days|future|culture|government|president|species)\b")
_OUR_RE = re.compile(r"^[Oo]ur\b")


def _singular(noun: str) -> str:
    if noun.endswith(("ies",)) and len(noun) > 4:
        return noun[:-3] + "y"
    if noun.endswith(("ches", "shes", "sses")):
        return noun[:-2]
    return noun[:-1]


def we_are_reading(said: str, *, whole: str = "") -> tuple[str, str, bool] | None:
    """(quote, statement, borrowed) for "we are farmers" / "we are from india", or None. A couple's years are read
    in the `whole` clause: the tail cut from `said` ("since March") is when it began."""
    role = _WE_ARE_ROLE_RE.match(said)
    if role and role.group("noun") not in _NOT_A_ROLE and not en.EN_NOT_ABOUT_USER_RE.search(said):
        described = f"{role.group('x')}{_singular(role.group('noun'))}{role.group('rest') or ''}"
        article = "an" if described[0] in "aeiou" else "a"
        return role.group(0), f"User is {article} {described}", False
    couple = _WE_COUPLE_RE.match(whole) or _WE_COUPLE_RE.match(said)
    if couple:
        return couple.group(0), _couple_statement(couple), False
    origin = _WE_ARE_FROM_RE.match(said)
    if origin and not en.EN_NOT_ABOUT_USER_RE.search(said):
        return origin.group(0), f"User is from {origin.group('place').strip()}", False
    return None


def _couple_statement(m: re.Match) -> str:
    """"User has been married for 7 years", "User got married in 2015", "User is in a relationship"."""
    state, rest = m.group("state"), m.group("rest") or ""
    said = m.group(0).lower()
    if state == "together":
        state = "in a relationship"
    elif state == "dating":
        state = "dating someone"
    if m.group("been"):
        return f"User has been {state}{rest}"
    if re.search(r"\bgot\b", said):
        return f"User got {state}{rest}"
    verb = "was" if re.search(r"\bwere\b", said) else "is"
    return f"User {verb} {state}{rest}"


def our_reading(clause: str, *, sentence: str) -> tuple[str, str, bool] | None:
    """"Our daughter plays sax" → "User's daughter plays sax": read as the "My …" clause it would be, or None."""
    bare = en.LEAD_FILLER_RE.sub("", clause)
    if not _OUR_RE.match(bare) or _SHARED_RE.match(bare):
        return None
    mine = "My" + bare[3:]
    read = en.en_clause(mine, sentence=sentence.replace(bare, mine))
    if not read or re.search(r"\b(?:we|us|we're|we’re|we've|we’ve)\b", read, re.I):
        return None  # "Our kids and we …": who "we" are stays open
    quote = bare[:3] + read[2:]
    return quote, en.en_statement(read), False
