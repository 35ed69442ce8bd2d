"""Deep sleep's side of engine.outcomes: the memory of "User got the job" takes its object from the one interview or
application the user told of before, and its score breakdown says which memory named it."""
from __future__ import annotations

from dreaming.engine.outcomes import outcome_named, unnamed_outcome
from dreaming.models import Memory


def outcome_statement(statement: str, *, active: list[Memory]) -> tuple[str, dict]:
    """(the memory's statement, what to add to its breakdown): the statement as said when nothing names it."""
    if not unnamed_outcome(statement):
        return statement, {}
    named = outcome_named(statement, [m.statement for m in active])
    if named is None:
        return statement, {}
    text, at = named
    return text, {"named_by": {"memory_id": active[at].pk, "statement": active[at].statement, "said": statement}}
