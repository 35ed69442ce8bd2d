"""Replay imported history night by night with a simulated clock.

A user who imports a year of conversations should end up with the memories they would have had if
memcenter had been there all along. For each local day with activity (a session belongs to the day
its last message was sent), in time order:
1. light sleep for that day's sessions, at end of day + DREAM_IDLE_SECONDS (so they are all idle);
2. that night's deep sleep at DREAM_DEEP_HOUR:00 the next morning;
and weekly consolidation at every weekly boundary (DREAM_WEEKLY_WEEKDAY, DREAM_WEEKLY_HOUR) that
falls before that night. Memory times come from message times (candidates carry said_at), and every
"now" handed down is the simulated one, so decay, timeliness and expiry see the history's clock.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Callable

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from chat.models import ChatSession
from dreaming.pipeline.deep import deep_sleep_all
from dreaming.models import DreamRun, MemorySettings
from dreaming.pipeline.schedules import next_local_time
from dreaming.pipeline.weekly import weekly_consolidate_all


@dataclass
class DayPlan:
    day: date
    session_ids: list[int]
    user_ids: set[int]
    sweep_at: datetime
    night: datetime


@dataclass
class BackfillResult:
    runs: list[DreamRun] = field(default_factory=list)
    days: int = 0


def backfill_plan(*, user=None) -> list[DayPlan]:
    """The days to replay: sessions that still need dreaming, grouped by the local day they ended."""
    sessions = ChatSession.objects.filter(Q(dreamed_at__isnull=True) | Q(last_active_at__gt=F("dreamed_at")))
    sessions = MemorySettings.exclude_off(sessions, user_path="user__")
    if user is not None:
        sessions = sessions.filter(user=user)
    by_day: dict[date, list[tuple[int, int]]] = defaultdict(list)
    for pk, user_id, last_active_at in sessions.values_list("pk", "user_id", "last_active_at"):
        by_day[timezone.localdate(last_active_at)].append((pk, user_id))
    tz = timezone.get_current_timezone()
    plans = []
    for day in sorted(by_day):
        end_of_day = datetime.combine(day + timedelta(days=1), time(0, 0), tzinfo=tz)
        sweep_at = end_of_day + timedelta(seconds=settings.DREAM_IDLE_SECONDS)
        night = max(sweep_at, next_local_time(now=end_of_day - timedelta(microseconds=1), hour=settings.DREAM_DEEP_HOUR))
        plans.append(DayPlan(
            day=day, session_ids=[pk for pk, _ in by_day[day]], user_ids={uid for _, uid in by_day[day]},
            sweep_at=sweep_at, night=night,
        ))
    return plans


def weekly_boundaries(*, after: datetime, until: datetime) -> list[datetime]:
    """Weekly consolidation times t with after < t <= until."""
    found = []
    t = next_local_time(now=after, hour=settings.DREAM_WEEKLY_HOUR, weekday=settings.DREAM_WEEKLY_WEEKDAY)
    while t <= until:
        found.append(t)
        t = next_local_time(now=t, hour=settings.DREAM_WEEKLY_HOUR, weekday=settings.DREAM_WEEKLY_WEEKDAY)
    return found


def dream_backfill(
    *, user=None, dry_run: bool = False, dreamer=None, embedder=None,
    progress: Callable[[int, int], None] | None = None,
) -> BackfillResult:
    from django.contrib.auth import get_user_model

    from dreaming.pipeline.light import light_sleep_sweep

    result = BackfillResult()
    plans = backfill_plan(user=user)
    seen_users: set[int] = set()
    previous_night: datetime | None = None
    for done, plan in enumerate(plans, start=1):
        seen_users |= plan.user_ids
        users = list(get_user_model().objects.filter(pk__in=seen_users).order_by("pk"))
        while True:  # a sweep takes a batch; repeat until the day's sessions are all taken
            run = light_sleep_sweep(
                now=plan.sweep_at, user=user, session_ids=plan.session_ids, dry_run=dry_run,
                dreamer=dreamer, embedder=embedder, batch_size=max(1, len(plan.session_ids)),
            )
            result.runs.append(run)
            if dry_run or run.sessions_claimed == 0 or run.sessions_done + run.sessions_skipped == 0:
                break
        if previous_night is not None:
            for boundary in weekly_boundaries(after=previous_night, until=plan.night):
                result.runs.append(weekly_consolidate_all(
                    now=boundary, dry_run=dry_run, dreamer=dreamer, embedder=embedder, users=users))
        day_users = [u for u in users if u.pk in plan.user_ids]
        result.runs.append(deep_sleep_all(now=plan.night, dry_run=dry_run, dreamer=dreamer, embedder=embedder, users=day_users))
        previous_night = plan.night
        result.days += 1
        if progress:
            progress(done, len(plans))
    return result
