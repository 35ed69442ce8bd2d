"""GET /healthz: is this install able to serve, and is it still dreaming?

Status levels, worst wins:
- "down"     (HTTP 503): the database does not answer `SELECT 1`. Nothing else is checked.
- "degraded" (HTTP 503): a phase is overdue, or the django-q2 scheduler has stopped advancing.
- "ok"       (HTTP 200).
`?only=database` checks just the database (200 / 503): for a load balancer, which should keep
sending chat traffic while dreaming is late (the chat path only reads stored MEMORY.md).
A fresh install is "ok": a phase that never ran is reported as "never_run", not overdue.
The public sees only {"status": …}; staff, or a request with `Authorization: Bearer <HEALTHZ_TOKEN>`,
see the details.
"""
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dreaming.providers.embedding_space import embedding_space_problem

OK, DEGRADED, DOWN = "ok", "degraded", "down"
# The django-q2 scheduler advances each schedule's next_run about every 30 s while a cluster runs.
SCHEDULER_LAG_LIMIT = timedelta(minutes=5)


def phase_limits() -> dict[str, timedelta]:
    """How old the last successful run of each phase may be before it is overdue."""
    return {
        "light": timedelta(seconds=3 * settings.DREAM_SWEEP_SECONDS),
        "deep": timedelta(hours=26),  # nightly, plus slack for a long night
        "weekly": timedelta(days=8),
    }


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "cannot serve"
        return {"status": DOWN, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"status": OK}


def check_phases(*, now: datetime) -> dict:
    from dreaming.models import DreamRun

    report = {}
    for phase, limit in phase_limits().items():
        runs = DreamRun.objects.filter(phase=phase, dry_run=False)
        last_ok = runs.filter(status=DreamRun.Status.OK, finished_at__isnull=False).order_by("-finished_at").first()
        latest = runs.order_by("-started_at").first()
        entry = {"max_age_seconds": int(limit.total_seconds())}
        if last_ok is None:
            entry.update(status="never_run", last_success=None, age_seconds=None)
        else:
            age = now - last_ok.finished_at
            entry.update(
                status="overdue" if age > limit else OK,
                last_success=last_ok.finished_at.isoformat(),
                age_seconds=int(age.total_seconds()),
            )
        # A worker killed mid-run leaves its run "running" forever; past the task timeout it is stuck.
        stuck_before = now - timedelta(seconds=settings.Q_CLUSTER["timeout"])
        entry["stuck_runs"] = runs.filter(status=DreamRun.Status.RUNNING, started_at__lt=stuck_before).count()
        if latest is not None and latest.status == DreamRun.Status.FAILED:
            entry["last_failure"] = {"run": latest.pk, "error": latest.error.strip().splitlines()[-1][:300]
                                     if latest.error.strip() else ""}
        report[phase] = entry
    return report


def check_queue(*, now: datetime) -> dict:
    """django-q2 liveness without its cache-based Stat (the default cache is per-process).

    The scheduler runs inside the cluster and moves each active schedule's next_run forward, so a
    next_run far in the past means no cluster is running. Also reports the newest finished task
    and the number of queued tasks in the ORM broker.
    """
    from django_q.models import OrmQ, Schedule, Task

    schedules = Schedule.objects.exclude(repeats=0).exclude(next_run=None)
    oldest_due = schedules.order_by("next_run").values_list("next_run", flat=True).first()
    last_task = Task.objects.order_by("-stopped").values_list("stopped", flat=True).first()
    entry = {
        "schedules": schedules.count(),
        "queued": OrmQ.objects.count(),
        "last_task_finished": last_task.isoformat() if last_task else None,
    }
    if oldest_due is None:
        entry.update(status="no_schedules", scheduler_lag_seconds=None)
        return entry
    lag = max(now - oldest_due, timedelta(0))
    entry.update(status="stale" if lag > SCHEDULER_LAG_LIMIT else OK, scheduler_lag_seconds=int(lag.total_seconds()))
    return entry


def check_nights(*, now: datetime) -> dict:
    """Tonight's deep-sleep and weekly units: done, running, waiting, failed, the rate and when they finish."""
    from dreaming.pipeline.units import PHASES, night_progress

    nights = {}
    for phase in PHASES:
        progress = night_progress(phase=phase, now=now)
        nights[phase] = {
            "night": progress.night.isoformat() if progress.night else None,
            "done": progress.done, "running": progress.running, "waiting": progress.waiting,
            "failed": progress.failed, "per_minute": progress.per_minute,
            "expected_finish": progress.expected_finish.isoformat() if progress.expected_finish else None,
            "late": progress.late,
        }
    return nights


def health_report(*, now: datetime | None = None, only_database: bool = False) -> dict:
    now = now or timezone.now()
    database = check_database()
    report = {"status": database["status"], "checked_at": now.isoformat(), "database": database}
    if database["status"] == DOWN or only_database:
        return report
    report["queue"] = check_queue(now=now)
    report["phases"] = check_phases(now=now)
    report["nights"] = check_nights(now=now)
    problems = [f"{phase} overdue" for phase, entry in report["phases"].items() if entry["status"] == "overdue"]
    problems += [f"{phase} night late" for phase, entry in report["nights"].items() if entry["late"]]
    embedding_problem = embedding_space_problem()
    report["embedding_space"] = {"status": OK if embedding_problem is None else "mismatch",
                                 **({"problem": embedding_problem} if embedding_problem else {})}
    if embedding_problem:
        problems.append("embedder changed without reembed: run `manage.py reembed`")
    if report["queue"]["status"] == "stale":
        problems.append("django-q scheduler stale")
    if problems:
        report["status"] = DEGRADED
        report["problems"] = problems
    return report


def may_see_details(request) -> bool:
    """Task times and errors are for staff, or a monitor holding HEALTHZ_TOKEN as a bearer token."""
    if getattr(request, "user", None) is not None and request.user.is_staff:
        return True
    token = settings.HEALTHZ_TOKEN
    sent = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(token) and constant_time_compare(sent, token)


@never_cache
@require_GET
def healthz(request):
    report = health_report(only_database=request.GET.get("only") == "database")
    status = 200 if report["status"] == OK else 503
    if not may_see_details(request):
        report = {"status": report["status"]}
    return JsonResponse(report, status=status)
