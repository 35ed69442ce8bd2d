"""A job left without naming it: "User quit their job" / "User was laid off" / 用户辞职了 after "User works as an
accountant at Deloitte". The comparer sees no shared value (no job is named), so deep sleep asks here after it
promotes such a statement; it ends the job only when the user has one (of two, which one is not said)."""
from __future__ import annotations

import re

from dreaming.engine import slots

# "User quit their job", "User was laid off", 用户辞职了: the job the user has, whichever it is, is over
_JOB_LEFT_RE = re.compile(
    r"^User (?:has )?(?:just )?(?:quit|left) (?:their|the|a) (?:job|position|company)\b|^User (?:was|got|has been) "
    r"(?:laid off|fired|let go)\b|^User (?:is |has )?retired\b|^用户(?:已经|刚刚?)?(?:辞职了|离职了|被裁了|被辞退了|被开除了|退休了|失业了)"
    # a job changed: the one before is over (the new one, said with it, is not: see deep.py)
    r"|^User (?:has )?(?:just )?(?:changed|switched) (?:jobs|careers|companies)\b|^User (?:just )?(?:got|started|found) a new job\b"
    r"|^用户(?:已经|刚刚?)?(?:换工作了|换了(?:份|个|一份)?(?:新)?工作|跳槽了)"
)
_PAST_JOB_RE = re.compile(r"\b(?:used to|former|formerly|retired|was an?|to become|wants to be|hopes to be|dreams? of)\b"
                          r"|以前|之前|退休前|曾经|想当|想成为")  # a job past, or one not yet had


def leaves_a_job(statement: str) -> bool:
    return bool(_JOB_LEFT_RE.match(statement))


def job_left(new: str, old: str) -> str | None:
    """"no longer: the job" when `new` says the user left their job, unnamed, and `old` is the job they have."""
    if not _JOB_LEFT_RE.match(new) or _PAST_JOB_RE.search(old):
        return None
    facts = slots.facts_of(old)
    jobs = [c for c in facts.concepts if c.startswith("job:")]
    return f"no longer: {jobs[0].split(':')[1]}" if jobs and facts.subject == "user" and not facts.plan else None
