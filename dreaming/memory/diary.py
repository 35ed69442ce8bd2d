"""DREAMS.md: one short narrative per night, for the user to read. Never a source of memories."""
from __future__ import annotations

from datetime import date, datetime, timedelta

from django.utils import timezone

from dreaming.models import DiaryEntry, DreamRun, Memory
from dreaming.engine.language import is_chinese
from dreaming.protocol import CallContext, Dreamer, NightChanges

def night_language(statements: list[str]) -> str:
    """"zh" when most of the night's statements are Chinese."""
    if not statements:
        return "en"
    chinese = sum(1 for s in statements if is_chinese(s))
    return "zh" if chinese * 2 > len(statements) else "en"


def night_of(now: datetime) -> date:
    # Deep sleep runs in the small hours: 03:00 on the 30th dreams about the night of the 29th.
    return (timezone.localtime(now) - timedelta(hours=12)).date()


def changes_are_empty(changes: NightChanges) -> bool:
    return not (changes.learned or changes.reinforced or changes.changed or changes.pending or changes.forgotten)


def diary_append(
    *, user, run: DreamRun | None, now: datetime, changes: NightChanges, memories: list[Memory], dreamer: Dreamer
) -> DiaryEntry | None:
    if changes_are_empty(changes):
        return None
    ctx = CallContext(user_id=user.pk, run_id=run.pk if run else None, phase="deep")
    narrative = dreamer.narrate(changes=changes, ctx=ctx).strip()
    if not narrative:
        return None
    entry = DiaryEntry.objects.create(user=user, run=run, night=night_of(now), narrative=narrative)
    entry.memories.set({m.pk for m in memories if m.pk})
    return entry
