"""Deep sleep's side of engine.outcomes: the memory of "User got the job" takes its object from the one interview or
application the user told of before, "User is engaged" the name of the one partner, and its score breakdown says
which memory named it."""
from __future__ import annotations

from collections.abc import Callable

from dreaming.engine.outcomes import may_be_named, outcome_named, partner_named
from dreaming.engine.passings import death_named
from dreaming.models import Memory


def outcome_statement(statement: str, *, active: Callable[[], list[Memory]]) -> tuple[str, dict]:
    """(the memory's statement, what to add to its breakdown): the statement as said when nothing names it.
    `active` gives the scope's active memories, read only for a statement that may be named."""
    if not may_be_named(statement):
        return statement, {}
    active = active()
    earlier = [m.statement for m in active]
    named = outcome_named(statement, earlier) or partner_named(statement, earlier) or death_named(statement, earlier)
    if named is None:
        return statement, {}
    text, at = named
    return text, {"named_by": {"memory_id": active[at].pk, "statement": active[at].statement, "said": statement}}
