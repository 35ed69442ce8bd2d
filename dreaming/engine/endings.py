"""What a new statement says is over, in one place for deep sleep: a habit quit (habits.py), a couple parted
(partings.py), a pet or person who died (passings.py), a job left (jobs_left.py; the caller ends it only when the user has one job)."""
from __future__ import annotations

from dreaming.engine.habits import ends_a_habit, habit_ended, pastime_ended
from dreaming.engine.jobs_left import leaves_a_job
from dreaming.engine.partings import parted_in, parts_a_couple
from dreaming.engine.passings import death_ends, tells_a_death


def ends_something(statement: str) -> bool:
    return ends_a_habit(statement) or leaves_a_job(statement) or parts_a_couple(statement) or tells_a_death(statement)


def ended_in(new: str, olds: list[str]) -> list[tuple[int, str]]:
    """(index, why) of each of `olds` that is over once `new` is said ("no longer: coffee", "no longer together:
    Chris", "no longer: Max (died)", a pastime given up)."""
    if parts_a_couple(new):
        return parted_in(new, olds)
    return [(i, why) for i, old in enumerate(olds)
            if (why := habit_ended(new, old) or pastime_ended(new, old) or death_ends(new, old))]
