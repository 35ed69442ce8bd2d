"""A sentence kept whole when no clause reading took anything from it (extract.py's last resort), at an importance
below triage's "personal" bar: a first-person sentence ("I am a vegitarian that likes eating fruit"), or a short
turn the learned disclosure model reads as telling something (likely_reading.py). `reading` is extract's
_TurnReading: its text, previous_assistant, user_initiated, found and add()."""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.hopes import doubted_before, to_come
from dreaming.engine.likely_reading import likely_statement
from dreaming.engine.sensitive import sensitive_category

_WHOLE_SENTENCE_IMPORTANCE_CAP = 0.45


def likely_disclosure(reading, spans: list[tuple[int, int]]) -> None:
    """A short turn no reading took anything from, kept as likely_reading.py reads it, as a sentence kept whole is."""
    said = likely_statement(reading.text, reading.previous_assistant or "", spans)
    if said:
        reading.add(*said, en.category_en(said[1]), is_zh=False, initiated=reading.user_initiated,
                    bonus=-0.1, cap=_WHOLE_SENTENCE_IMPORTANCE_CAP)


# "When I'm old enough to shop for myself, I'll …": what the user will be, said as the time of a plan; whole, it
# would read "User is old enough to shop for themself".
_FUTURE_CONDITION_RE = re.compile(r"^\W*(?:(?:oh|well|so|and|but),?\s+)?(?:when|once|if|as soon as|until)\s+(?:I|i)\b.*"
                                  r"[,\s](?:I|i)(?:'ll|’ll| will| am going to|'m going to|’m going to)\b", re.IGNORECASE)


def whole_sentence(reading, sentence: str, *, before: int, volunteered: bool) -> None:
    """A first-person sentence no clause reading took anything from ("I am a vegitarian that likes eating
    fruit", "Yes it sucks loosing I also enjoy lawn mowing") is kept whole, as its own statement."""
    if len(reading.found) > before or _FUTURE_CONDITION_RE.match(sentence.strip()):
        return
    said = en.sentence_statement(sentence)
    before = sentence[: max(0, sentence.find(said[0]))] if said else ""
    if said and doubted_before(before):
        return  # "Not sure I'm ready for a marathon": the user doubts it
    said = said and (to_come(said[0], said_before=before, sentence=sentence) or said)  # "… better when I move out"
    if said and not sensitive_category(said[0]):
        reading.add(said[0], said[1], en.category_en(said[1]), is_zh=False, initiated=volunteered, bonus=-0.1,
                    cap=_WHOLE_SENTENCE_IMPORTANCE_CAP)
