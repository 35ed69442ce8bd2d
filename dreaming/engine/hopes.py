"""A hope read as a hope, not as a done thing or a sure plan.

"Hopefully, I can raise enough to cover basic needs for the homeless" was read as "User can raise enough …", and
"Hopefully I'll get the job at the bank" as "User will get the job at the bank": the "hopefully" that carries the
meaning is a lead filler, cut before the clause is read. "I hope I can finish my degree this year" gave nothing
of the hope. Each now reads "User hopes to …", the quote kept as said (the truth guard takes "hopes" from
"hopefully", `implied_pursuits.INFERRED_WORDS`).

A deed in a "when" clause of a future main clause is to come: "Good but will be better when I move out of my parents
house!" read "User moves out of their parents house"; now "User will move out of their parents house".

A doubt is no statement either: "Don't feel like I'm making much of an impact here" was read as "User is making
much of an impact here", "Not sure I'm ready for a marathon" as "User is ready for a marathon" — the meaning
reversed. A clause after such a frame (`doubted_before`) is not read as the user's.

Only the user's own hoped act: "Hopefully it works out" / "I hope you like it" are not about the user.
"""
from __future__ import annotations

import re

from dreaming.engine import english as en

_HOPED_RE = re.compile(
    r"^(?P<hope>(?:(?:and|but|so)\s+)?(?:hopefully|I\s+(?:really\s+)?hope(?:\s+that)?|I'?m\s+hoping(?:\s+that)?|"
    r"I’m\s+hoping(?:\s+that)?|I\s+am\s+hoping(?:\s+that)?),?\s+)"
    r"(?P<rest>I(?:\s+(?:can|will|could|might|would|get\s+to|am\s+going\s+to|am\s+gonna)|'ll|’ll|'m\s+(?:going\s+to|gonna)|"
    r"’m\s+(?:going\s+to|gonna))\s+[a-z].*)$",
    re.IGNORECASE,
)
_MODAL_STATEMENT_RE = re.compile(r"^User (?:will|can|could|might|would|gets to|is going to|is gonna) (?=[a-z])")


def hoped_clause(clause: str) -> tuple[str, str] | None:
    """("Hopefully, ", "I can raise enough …"): the hope as said and the clause it hopes, or None when the clause
    hopes nothing of the user's own doing."""
    m = _HOPED_RE.match(clause.strip())
    return (m.group("hope"), m.group("rest")) if m else None


def as_hope(statement: str) -> str | None:
    """"User can raise enough …" → "User hopes to raise enough …" (None when the statement is no such modal)."""
    return _MODAL_STATEMENT_RE.sub("User hopes to ", statement, count=1) if _MODAL_STATEMENT_RE.match(statement) else None


def hope_before(before: str) -> str:
    """The "Hopefully, " a comma split off the clause that follows it ("Hopefully, I can …"), as said, or ""."""
    m = re.search(r"\bhopefully\s*,?\s*$", before, re.IGNORECASE)
    return before[m.start():] if m else ""


# "Don't feel like", "I don't think", "not sure", "I doubt", "no idea if", "wondering if": what follows is not held true.
_DOUBTED_BEFORE_RE = re.compile(
    r"(?:^|\b)(?:(?:I\s+)?(?:don't|dont|don’t|do\s+not|didn't|didn’t|did\s+not)\s+(?:really\s+|even\s+)?"
    r"(?:feel\s+like|feel\s+that|think|believe|know\s+if|know\s+whether|know\s+that)|"
    r"(?:I'?m\s+|I’m\s+|I\s+am\s+)?(?:not|never)\s+(?:really\s+|so\s+|too\s+|even\s+)?sure(?:\s+if|\s+whether|\s+that)?|"
    r"(?:I\s+)?doubt(?:\s+that|\s+if)?|no\s+idea\s+(?:if|whether)|(?:I'?m\s+|I\s+am\s+)?wondering\s+(?:if|whether)|"
    r"I\s+wonder\s+(?:if|whether))\s*,?\s*$",
    re.IGNORECASE,
)


def doubted_before(before: str) -> bool:
    """Does the sentence, just before a clause, doubt what the clause says ("Don't feel like I'm …")?"""
    return bool(_DOUBTED_BEFORE_RE.search(before))


# "will be better when I move out", "I'll be happy once I graduate": the deed of the clause is still to come.
_FUTURE_WHEN_BEFORE_RE = re.compile(r"\b(?:will|'ll|’ll|gonna|going to|can't wait|cannot wait)\b[^.!?;]*\b(?:when|once|as soon as)\s*$",
                                    re.IGNORECASE)
_PRESENT_I_RE = re.compile(r"^I\s+(?!(?:was|were|had|did|got|went|am|have|can|will|could|would|'m|’m)\b)(?![a-z]+ed\b)(?=[a-z])")


def hoped_or_to_come(clause: str, *, said_before: str, sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for a clause that hopes ("Hopefully, I can raise enough …" → "User hopes to raise enough …")
    or tells what is to come ("… will be better when I move out of my parents house" → "User will move out of their
    parents house"), or None."""
    hoped = hoped_clause(clause) or hoped_clause(hope_before(said_before) + clause)
    read = hoped and en.en_clause(hoped[1], sentence=sentence)
    if read and (hope := as_hope(en.en_statement(read))):
        return hoped[0] + read, hope
    return to_come(clause, said_before=said_before, sentence=sentence)


def to_come(clause: str, *, said_before: str, sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for the deed of a "when" clause whose main clause is in the future, or None."""
    bare = clause.strip()
    if not (_FUTURE_WHEN_BEFORE_RE.search(said_before) and _PRESENT_I_RE.match(bare)):
        return None
    read = en.en_clause("I will " + bare[2:], sentence=sentence)
    return (bare[: len(read) - len("I will ") + 2].rstrip(" ,;:-"), en.en_statement(read)) if read else None
