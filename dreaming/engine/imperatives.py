"""Whether a sentence that opens with a bare verb tells the other side what to do ("Enjoy your trip!", "Well enjoy
being single", "Work hard and you will get there") rather than saying what the user does with the "I" left out
("Enjoy cooking too", "Work at a bank downtown", "Love that show"). english_clause reads the second kind only.
"""
from __future__ import annotations

import re

# The clause up to its first punctuation ("Love hiking, do you?" asks back after the comma).
_CLAUSE_END_RE = re.compile(r"[,;:.!?]")
# "you" / "your" in the clause: the words are for the other side ("Enjoy your weekend", "Love your idea"); not a tag.
_SECOND_PERSON_RE = re.compile(r"\b(?:you|your|yours|yourself|yourselves|ur|ya)\b(?!\s+know\b|\s+see\b)",
                               re.IGNORECASE)
_BARE_VERB_RE = re.compile(r"^(?:(?:just|still|really)\s+)?(?P<verb>enjoy|work|live|love|like|hate|prefer)\b", re.IGNORECASE)
# Said of oneself, "enjoy" takes a word that makes it so ("Enjoy hiking with my dog", "Enjoy cooking too"); a bare
# "Enjoy the beach!" wishes it the other side.
_OWN_SIDE_RE = re.compile(r"\b(?:my|me|myself|mine|our|us|too|also|as well|a lot|so much|very much|the most|"
                          r"always|usually|often|sometimes|every)\b", re.IGNORECASE)


def tells_the_other_side(bare: str) -> bool:
    """True when `bare` (a sentence's opening, fillers stripped) is an imperative or a wish for the other side."""
    m = _BARE_VERB_RE.match(bare)
    if not m:
        return False  # "Went hiking", "Been busy", "Just got home": a deed or a state, the user's
    clause = _CLAUSE_END_RE.split(bare, maxsplit=1)[0]
    if _SECOND_PERSON_RE.search(clause):
        return True
    return m.group("verb").lower() == "enjoy" and not _OWN_SIDE_RE.search(clause)
