"""`manage.py dream`, `manage.py dream_schedule` and the schedules created by the migration."""
from datetime import datetime, timedelta, timezone as dt_timezone
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from django_q.models import Schedule

from dreaming.pipeline import schedules
from dreaming.models import Candidate, DreamRun, Memory
from tests.factories import MemoryFactory, candidate_said

pytestmark = pytest.mark.django_db


def dream(*args):
    out, err = StringIO(), StringIO()
    call_command("dream", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_without_now_it_only_explains_itself(user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo", importance=0.8)
    out, _ = dream()
    assert "--now" in out and len(out.strip().splitlines()) == 1
    assert not DreamRun.objects.exists() and not Memory.objects.exists()


def test_an_unknown_user_is_one_readable_error():
    with pytest.raises(CommandError, match="Unknown user 'nobody'"):
        dream("--now", "--user", "nobody")
    assert not DreamRun.objects.exists()


def test_backfill_and_phase_together_are_refused(user):
    with pytest.raises(CommandError, match="--backfill"):
        dream("--now", "--backfill", "--phase", "deep")


def test_deep_phase_for_one_user_ends_with_a_summary_line(user, other_user):
    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo", importance=0.8)
    candidate_said(user=other_user, quote="I have a cat named Tom", statement="User has a cat named Tom", importance=0.8)

    out, err = dream("--now", "--phase", "deep", "--user", user.username)

    lines = out.strip().splitlines()
    assert len(lines) == 1
    for part in ("sessions 0", "skipped: none", "candidates 0", "promoted 1", "pending 0", "superseded 0",
                 "merged 0", "evicted 0", "LLM calls", "cost $"):
        assert part in lines[0]
    assert "deep" in err and "1/1" in err  # the progress bar goes to stderr
    assert Memory.objects.filter(user=user).count() == 1
    assert not Memory.objects.filter(user=other_user).exists()


def test_dry_run_through_the_command_writes_nothing(user):
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.8)
    out, _ = dream("--now", "--phase", "all", "--dry-run")
    candidate.refresh_from_db()
    assert out.startswith("Dry run (nothing written): would have") and "promoted 1" in out
    assert candidate.status == Candidate.Status.PENDING and not Memory.objects.exists()


def test_weekly_phase_runs_consolidation(user):
    long_ago = timezone.now() - timedelta(days=60)
    memory = MemoryFactory(user=user, category="event", confidence=0.8, half_life_days=30.0,
                           last_seen=long_ago, first_seen=long_ago, valid_from=long_ago)
    out, _ = dream("--now", "--phase", "weekly")
    memory.refresh_from_db()
    assert memory.confidence == pytest.approx(0.2, abs=0.01)
    assert DreamRun.objects.filter(phase="weekly", status="ok").count() == 1


def test_the_migration_created_the_three_schedules():
    rows = {s.name: s for s in Schedule.objects.filter(name__in=schedules.NAMES)}
    assert set(rows) == set(schedules.NAMES)
    assert rows[schedules.LIGHT].func == "dreaming.tasks.light_sleep_task"
    assert (rows[schedules.LIGHT].schedule_type, rows[schedules.LIGHT].minutes) == (Schedule.MINUTES, 5)
    assert rows[schedules.DEEP].func == "dreaming.tasks.deep_sleep_task"
    assert rows[schedules.DEEP].schedule_type == Schedule.DAILY
    assert timezone.localtime(rows[schedules.DEEP].next_run).hour == 3
    assert rows[schedules.WEEKLY].func == "dreaming.tasks.weekly_task"
    weekly_at = timezone.localtime(rows[schedules.WEEKLY].next_run)
    assert rows[schedules.WEEKLY].schedule_type == Schedule.WEEKLY and (weekly_at.weekday(), weekly_at.hour) == (6, 4)


def test_dream_schedule_is_idempotent_and_keeps_admin_edits_unless_reset():
    Schedule.objects.filter(name=schedules.DEEP).delete()
    out = StringIO()
    call_command("dream_schedule", stdout=out)
    assert f"{schedules.DEEP}: created" in out.getvalue() and f"{schedules.LIGHT}: kept" in out.getvalue()

    Schedule.objects.filter(name=schedules.LIGHT).update(minutes=15)  # an edit made in admin
    call_command("dream_schedule", stdout=StringIO())
    call_command("dream_schedule", stdout=StringIO())
    assert Schedule.objects.filter(name__in=schedules.NAMES).count() == 3
    assert Schedule.objects.get(name=schedules.LIGHT).minutes == 15

    out = StringIO()
    call_command("dream_schedule", "--reset", stdout=out)
    assert "reset" in out.getvalue() and Schedule.objects.get(name=schedules.LIGHT).minutes == 5
    assert Schedule.objects.filter(name__in=schedules.NAMES).count() == 3


def test_next_local_time_is_in_the_configured_time_zone(settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    now = datetime(2026, 3, 10, 20, 0, tzinfo=dt_timezone.utc)  # 04:00 on the 11th in Shanghai
    deep = schedules.next_local_time(now=now, hour=3)
    weekly = schedules.next_local_time(now=now, hour=4, weekday=6)
    assert deep.isoformat() == "2026-03-12T03:00:00+08:00"
    assert weekly.isoformat() == "2026-03-15T04:00:00+08:00"


def test_the_scheduled_tasks_run_their_phases(user):
    from dreaming.tasks import deep_sleep_task, weekly_task

    candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo", importance=0.8)
    assert deep_sleep_task().startswith("deep sleep: 1 user(s), 1 promoted")
    assert weekly_task().startswith("weekly: 1 user(s)")
    assert Memory.objects.filter(user=user, status="active").count() == 1
