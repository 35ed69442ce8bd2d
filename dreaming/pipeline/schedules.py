"""The three django-q2 schedules of dreaming, as data: created by migration 0002 and `manage.py dream_schedule`.

Deep sleep and weekly use django-q2's DAILY / WEEKLY types with a first next_run at the right local
time: django-q2 keeps the wall-clock time across DST changes for those types, and they need no extra
package (a CRON schedule needs `croniter`; see docs/deep.md for switching to cron in admin).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

LIGHT = "dreaming: light sleep"
DEEP = "dreaming: deep sleep"
WEEKLY = "dreaming: weekly consolidation"
NAMES = (LIGHT, DEEP, WEEKLY)


def next_local_time(*, now: datetime, hour: int, weekday: int | None = None) -> datetime:
    """The next moment after `now` that is `hour`:00 in TIME_ZONE (on `weekday`, 0 = Monday, if given)."""
    local = now.astimezone(ZoneInfo(settings.TIME_ZONE))
    candidate = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    while candidate <= local or (weekday is not None and candidate.weekday() != weekday):
        candidate = (candidate + timedelta(days=1)).replace(hour=hour)
    return candidate


def schedule_specs(*, now: datetime | None = None) -> dict[str, dict]:
    now = now or timezone.now()
    return {
        LIGHT: {
            "func": "dreaming.tasks.light_sleep_task",
            "schedule_type": "I",  # Schedule.MINUTES
            "minutes": max(1, settings.DREAM_SWEEP_SECONDS // 60),
            "repeats": -1,
            "next_run": now,
        },
        DEEP: {
            "func": "dreaming.tasks.deep_sleep_task",
            "schedule_type": "D",  # Schedule.DAILY
            "repeats": -1,
            "next_run": next_local_time(now=now, hour=settings.DREAM_DEEP_HOUR),
        },
        WEEKLY: {
            "func": "dreaming.tasks.weekly_task",
            "schedule_type": "W",  # Schedule.WEEKLY
            "repeats": -1,
            "next_run": next_local_time(now=now, hour=settings.DREAM_WEEKLY_HOUR, weekday=settings.DREAM_WEEKLY_WEEKDAY),
        },
    }


def schedules_ensure(*, schedule_model, reset: bool = False, now: datetime | None = None) -> dict[str, str]:
    """Create the missing schedules ("created"); leave edited ones alone ("kept") unless reset ("reset").

    Takes the model class so the data migration can pass its historical model.
    """
    outcome = {}
    for name, spec in schedule_specs(now=now).items():
        existing = schedule_model.objects.filter(name=name).first()
        if existing is None:
            schedule_model.objects.create(name=name, **spec)
            outcome[name] = "created"
        elif reset:
            schedule_model.objects.filter(pk=existing.pk).update(**{"cron": None, "minutes": None, **spec})
            outcome[name] = "reset"
        else:
            outcome[name] = "kept"
    return outcome


def schedules_remove(*, schedule_model) -> int:
    deleted, _ = schedule_model.objects.filter(name__in=NAMES).delete()
    return deleted
