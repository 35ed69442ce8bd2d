"""Create the three dreaming schedules (light sleep sweep, nightly deep sleep, weekly consolidation).

A frozen copy of dreaming/pipeline/schedules.py as it stood when this migration was written, so a
later change there cannot change what this migration does (`manage.py dream_schedule` uses the live one).
"""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import migrations
from django.utils import timezone

NAMES = ("dreaming: light sleep", "dreaming: deep sleep", "dreaming: weekly consolidation")


def _next_local_time(*, now: datetime, hour: int, weekday: int | None = None) -> datetime:
    local = now.astimezone(ZoneInfo(settings.TIME_ZONE))
    candidate = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    while candidate <= local or (weekday is not None and candidate.weekday() != weekday):
        candidate = (candidate + timedelta(days=1)).replace(hour=hour)
    return candidate


def create_schedules(apps, schema_editor):
    schedule = apps.get_model("django_q", "Schedule")
    now = timezone.now()
    specs = {
        NAMES[0]: {"func": "dreaming.tasks.light_sleep_task", "schedule_type": "I",
                   "minutes": max(1, settings.DREAM_SWEEP_SECONDS // 60), "repeats": -1, "next_run": now},
        NAMES[1]: {"func": "dreaming.tasks.deep_sleep_task", "schedule_type": "D", "repeats": -1,
                   "next_run": _next_local_time(now=now, hour=settings.DREAM_DEEP_HOUR)},
        NAMES[2]: {"func": "dreaming.tasks.weekly_task", "schedule_type": "W", "repeats": -1,
                   "next_run": _next_local_time(now=now, hour=settings.DREAM_WEEKLY_HOUR,
                                                weekday=settings.DREAM_WEEKLY_WEEKDAY)},
    }
    for name, spec in specs.items():
        if not schedule.objects.filter(name=name).exists():
            schedule.objects.create(name=name, **spec)


def remove_schedules(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name__in=NAMES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("dreaming", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedules, remove_schedules)]
