"""A mood of the moment or the day's plan, beside something lasting the same turn tells.

"I'm so pumped for the launch tomorrow! I work as a product manager at a startup": a month later the user wants
the job remembered, not the mood of that evening. When a turn gives a lasting statement, a mood of the moment
("User is stoked about this new script", "User can't wait to see them") or a plan for the day ("User is taking
some time off this weekend") from the same turn is kept below the importance deep sleep promotes on the first
night: it waits, pending, until it comes up again.

When it is the turn's only statement it stays as it is: then it is all that is remembered of the turn, and a
question about that day is answered from it (LoCoMo asks about such turns; see the h14/weak report).
"""
from __future__ import annotations

import re

from dreaming.engine.vagueness import vague_reason
from dreaming.protocol import ExtractedCandidate

# what a pending candidate is given: below the first night's promotion, above the dismissal of a passing remark
MOMENT_IMPORTANCE = 0.3
# a statement beside it this important is likely promoted itself ("User has pets" at 0.35 is not: the turn would be
# left with nothing remembered the first night)
LASTING_IMPORTANCE = 0.45

_MOOD_RE = re.compile(
    r"^User (?:is|was|feels|felt|has been|is feeling)(?: (?:so|really|super|very|pretty|totally|just|absolutely|"
    r"incredibly|extremely|a bit|kind of|still|also|beyond))* (?P<p>pumped|excited|stoked|thrilled|psyched|hyped|"
    r"ecstatic|over the moon|nervous|anxious|worried|scared|thankful|grateful|relieved)\b"
    r"|^User (?:just |really |honestly )?(?P<q>can't wait|cannot wait|can not wait)\b",
    re.IGNORECASE,
)
_DAY_PLAN_RE = re.compile(r"\b(?:this weekend|tomorrow|tonight|later today|this (?:afternoon|evening))\b", re.IGNORECASE)


def is_moment(statement: str) -> bool:
    """A mood of the moment ("User is so pumped for the launch") or a plan for the day ("… this weekend")."""
    return bool(_MOOD_RE.match(statement) or _DAY_PLAN_RE.search(statement))


def moments_beside_lasting(candidates: list[ExtractedCandidate]) -> list[ExtractedCandidate]:
    """The candidates, a moment's importance lowered to MOMENT_IMPORTANCE when its turn also gives a statement at
    least LASTING_IMPORTANCE that is neither a moment nor vague. Called on the session's kept candidates: the
    moment is ranked as it was said, and waits rather than being cut."""
    lasting_turns = {c.seq for c in candidates if c.importance >= LASTING_IMPORTANCE and not is_moment(c.statement)
                     and not vague_reason(c.statement) and c.category != "emotion"}
    return [c.model_copy(update={"importance": min(c.importance, MOMENT_IMPORTANCE)})
            if c.seq in lasting_turns and is_moment(c.statement) else c for c in candidates]
