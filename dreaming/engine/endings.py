"""What a new statement says is over, in one place for deep sleep: a habit quit (habits.py), a couple parted
(partings.py), a pet or person who died (passings.py), a job left (jobs_left.py; the caller ends it only when the user has one job)."""
from __future__ import annotations

from dreaming.engine.habits import ends_a_habit, habit_ended, pastime_ended
from dreaming.engine.jobs_left import leaves_a_job
from dreaming.engine.partings import parted_from, parts_a_couple
from dreaming.engine.passings import death_ends, tells_a_death


def ends_something(statement: str) -> bool:
    return ends_a_habit(statement) or leaves_a_job(statement) or parts_a_couple(statement) or tells_a_death(statement)


def ended_by(new: str, old: str) -> str | None:
    """Why `old` is over once `new` is said ("no longer: coffee", "no longer together: Chris"), or None."""
    return habit_ended(new, old) or pastime_ended(new, old) or parted_from(new, old) or death_ends(new, old)
