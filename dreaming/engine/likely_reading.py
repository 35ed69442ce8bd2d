"""What a short turn the learned model says discloses something tells, when no rule read anything from it.

extract.py asks `likely_statement` only for an English turn no reading took anything from. When the learned
model (disclosure_model.py) says the turn tells something about the user ("The closest that I get to athletics
is ping pong"), its longest first-person statement — a sentence, or a piece of one between commas — is kept,
rewritten about the user, as a sentence kept whole is.
"""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.disclosure_model import likely_disclosure
from dreaming.engine.hopes import doubted_before
from dreaming.engine.language import content_tokens
from dreaming.engine.sensitive import sensitive_category

_FIRST_PERSON_WORD_RE = re.compile(r"\b(?:I|I'm|I’m|I've|I'd|I'll|my|My|me|mine|myself)\b")
_OTHER_SIDE_RE = re.compile(r"\b(?:you|your|you're|yours|u)\b", re.IGNORECASE)
_PIECE_SPLIT_RE = re.compile(r"\s*[,;]\s+|\s+[-–—]\s+")
# "When I'm old enough to shop for myself, I'll", "When I am not reading, …": a piece that is the time or condition of
# something to come is no fact (a past one, "When I was born my heart was outside my body", may tell one)
_CONDITION_PIECE_RE = re.compile(r"^(?:when|whenever|once|if|unless|until|as soon as)\s+(?:I|i)\b"
                                 r"(?!\s+(?:was|were|had|did|used|got|went|moved|lived)\b)", re.IGNORECASE)


def likely_statement(text: str, previous_assistant: str, spans: list[tuple[int, int]]) -> tuple[str, str] | None:
    """(quote, statement) of the turn's longest first-person piece when the model says the turn discloses."""
    if not likely_disclosure(text, previous_assistant):
        return None
    pieces = []
    for a, b in spans:
        sentence = text[a:b].strip()
        pieces += [sentence, *_PIECE_SPLIT_RE.split(sentence)]
    # "Exactly what I needed": the "I" of a relative clause, read before "exactly" goes with the fillers.
    # "I mean where I come from …": and after a leading "I mean", so is the "I" of a clause of place.
    own = [en.LEAD_FILLER_RE.sub("", p).rstrip(" ,;:-.!…") for p in pieces if not en.late_i_says_nothing(p)]
    own = [p for p in own if not en.late_i_says_nothing(p)]
    # "I am glad you are safe now" is about the other side, however likely the turn is to disclose.
    own = [p for p in own if _FIRST_PERSON_WORD_RE.search(p) and not _OTHER_SIDE_RE.search(p) and "?" not in p
           and not _CONDITION_PIECE_RE.match(p)
           and len(p.split()) >= 3 and not en.says_nothing_of_the_user(p) and not sensitive_category(p)]
    # "Not sure I'm ready for a marathon": doubted, not said (hopes.py)
    own = [p for p in own if not (re.search(r"\bI\b", p) and doubted_before(p[: re.search(r"\bI\b", p).start()]))]
    if not own:
        return None
    quote = max(own, key=lambda p: len(content_tokens(p)))
    statement = en.en_statement(quote)
    if not re.search(r"\bUser\b", statement):  # "A librarian was my mother's profession": the "my" is the user
        statement = en.en_statement(re.sub(r"\b[Mm]y\b", "User's", quote, count=1))
    return (quote, statement) if re.search(r"\bUser\b", statement) else None
