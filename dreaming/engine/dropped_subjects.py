"""A clause whose "I" the user dropped: "Just got home from work" → "User got home from work", "Been busy with the
garden" → "User has been busy with the garden", "also got a part time job at the campus library" later in a turn.
Not a noun that opens the clause ("Work is fine"), a question whose verb comes after the comma, nor a wish said to
the other side ("Enjoy your trip!")."""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.go_activities import outing_habit
from dreaming.engine.imperatives import tells_the_other_side

# A question whose verb comes after the comma: "Building on all this, could a meta joke be a nice touch?"
# ("Just got home, do you cook?" asks the other side something else: that opening is still the user's news).
_FRONTED_QUESTION_RE = re.compile(
    r",\s*(?:could|would|can|should|will|shall|might|is|are|was|were|do|does|did|isn't|wouldn't|won't)\s+"
    r"(?!you\b|u\b|ya\b)[^?]*\?\W*$",
    re.IGNORECASE,
)


def dropped_subject_reading(bare: str, *, sentence: str) -> tuple[str, str, bool] | None:
    """"Just got home from work" → "User got home from work"; "Been busy with the garden" → "User has been …"."""
    if _FRONTED_QUESTION_RE.search(sentence):
        return None  # "Considering my budget, would a used car be better?": the opening is the question's
    if tells_the_other_side(bare):
        return None  # "Well enjoy being single", "Enjoy your trip!": a wish for the other side
    dropped = bare[:1].lower() + bare[1:]
    if re.match(r"^(?:also |then |and )?[a-z]+ (?:is|was|are|were|has been|seems|looks|sounds|feels|gets|went)\b", dropped):
        return None  # "Work is fine", "Running is going well": the first word is the subject, not the user's verb
    if re.match(r"^(?:(?:just|still|recently)\s+)?(?:\w+ing|gonna)\b", dropped, re.I):
        subject = "I am "
    elif re.match(r"^(?:(?:just|still|recently)\s+)?been\b", dropped, re.I):
        subject = "I have "
    else:
        subject = "I "
    implicit = en.en_clause(subject + dropped, sentence=sentence)
    if not implicit:
        return None
    quote = bare[: len(en.cut_tail(dropped).rstrip(" ,;:-.!"))]  # as said, capital letter and all
    return quote, en.habit_statement(quote) or outing_habit(quote) or en.en_statement(implicit), False
