"""Staff numbers about dreaming: pure selectors over stored rows (DreamRun, LLMCall, ChatSession).

One source of truth: the dashboard (dreaming/staff/views.py) and `manage.py dream_report` both call
`report_build`, so the page and the command can never disagree.

Window: a rolling one, `[now - days, now]`. Totals and the cost estimate use exactly that window;
per-day series bucket the same rows by local calendar date (so a 7-day window shows up to 8 dates,
the first and the last partial). Dry runs are left out of every count: they wrote nothing.
"""
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from chat.models import ChatSession
from dreaming.models import Candidate, DreamRun, LLMCall, Phase
from dreaming.pipeline.runs import RUN_COUNTERS, run_summary
from dreaming.providers.accounting import model_price
from dreaming.protocol import TRIAGE_KINDS


OUTCOME_FIELDS = ("promoted", "pending", "superseded", "merged", "evicted")
# Phases whose model spend is the memory system's own; "chat" is the demo chat page's reply model.
MEMORY_PHASES = (Phase.LIGHT, Phase.DEEP, Phase.WEEKLY, Phase.RECALL)
DAYS_PER_MONTH = 30
MONEY_PLACES = Decimal("0.000001")


@dataclass(frozen=True)
class Window:
    since: datetime
    until: datetime
    days: int


def report_window(*, days: int, now: datetime | None = None) -> Window:
    until = now or timezone.now()
    return Window(since=until - timedelta(days=days), until=until, days=days)


def _runs_in(window: Window):
    return DreamRun.objects.filter(started_at__gte=window.since, started_at__lte=window.until, dry_run=False)


def _calls_in(window: Window):
    return LLMCall.objects.filter(created_at__gte=window.since, created_at__lte=window.until)


def _dates(window: Window) -> list[date]:
    first, last = timezone.localdate(window.since), timezone.localdate(window.until)
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]




def runs_recent(*, limit: int = 20) -> list[DreamRun]:
    return list(DreamRun.objects.select_related("user").order_by("-started_at")[:limit])


def runs_slowest(*, window: Window, limit: int = 5) -> list[DreamRun]:
    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    return list(
        _runs_in(window).filter(finished_at__isnull=False).select_related("user")
        .annotate(duration=duration).order_by("-duration", "-started_at")[:limit]
    )


def runs_failed(*, window: Window, limit: int = 10) -> list[DreamRun]:
    return list(_runs_in(window).filter(status=DreamRun.Status.FAILED).select_related("user")[:limit])


def run_totals(*, window: Window) -> dict:
    totals = _runs_in(window).aggregate(
        runs=Count("id"),
        failed=Count("id", filter=Q(status=DreamRun.Status.FAILED)),
        **{name: Sum(name) for name in RUN_COUNTERS},
    )
    return {name: value or 0 for name, value in totals.items()}


def triage_breakdown(*, window: Window) -> dict[str, int]:
    """Sessions light sleep triaged in the window, by kind (every kind present, zeros included)."""
    rows = (
        ChatSession.objects.filter(dreamed_at__gte=window.since, dreamed_at__lte=window.until)
        .exclude(triage_kind="").values("triage_kind").annotate(n=Count("id"))
    )
    counts = dict.fromkeys(TRIAGE_KINDS, 0)
    counts.update({row["triage_kind"]: row["n"] for row in rows})
    return counts


def skipped_by_kind(*, window: Window) -> dict[str, int]:
    """The runs' own tally of skipped sessions (kept even after a session is deleted)."""
    totals: dict[str, int] = {}
    for tally in _runs_in(window).exclude(skipped_by_kind={}).values_list("skipped_by_kind", flat=True):
        for kind, n in (tally or {}).items():
            totals[kind] = totals.get(kind, 0) + int(n or 0)
    return totals


def outcomes_per_day(*, window: Window) -> list[dict]:
    rows = (
        _runs_in(window).annotate(day=TruncDate("started_at")).values("day")
        .annotate(**{name: Sum(name) for name in OUTCOME_FIELDS})
    )
    by_day = {row["day"]: row for row in rows}
    return [
        {"day": day, **{name: (by_day.get(day) or {}).get(name) or 0 for name in OUTCOME_FIELDS}}
        for day in _dates(window)
    ]


def rejection_rate(*, candidates_created: int, unverified_rejected: int) -> float | None:
    """Share of extracted quotes that were not found in their message: rejected / (kept + rejected)."""
    seen = candidates_created + unverified_rejected
    return unverified_rejected / seen if seen else None


def llm_usage_per_day(*, window: Window) -> list[dict]:
    rows = (
        _calls_in(window).annotate(day=TruncDate("created_at")).values("day")
        .annotate(calls=Count("id"), prompt_tokens=Sum("prompt_tokens"),
                  completion_tokens=Sum("completion_tokens"), cost_usd=Sum("cost_usd"))
    )
    by_day = {row["day"]: row for row in rows}
    empty = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": Decimal("0")}
    return [{"day": day, **{k: (by_day.get(day) or empty)[k] or empty[k] for k in empty}} for day in _dates(window)]


def llm_usage_by_phase(*, window: Window) -> list[dict]:
    return list(
        _calls_in(window).values("phase").annotate(
            calls=Count("id"), prompt_tokens=Sum("prompt_tokens"), completion_tokens=Sum("completion_tokens"),
            cost_usd=Sum("cost_usd"), errors=Count("id", filter=~Q(status=LLMCall.Status.OK)),
        ).order_by("phase")
    )


def llm_usage_by_task(*, window: Window) -> list[dict]:
    """Calls, tokens and cost per task (extract, compare, merge, narrate, reply, embed)."""
    return list(
        _calls_in(window).values("task").annotate(
            calls=Count("id"), prompt_tokens=Sum("prompt_tokens"), completion_tokens=Sum("completion_tokens"),
            cost_usd=Sum("cost_usd"),
        ).order_by("-cost_usd", "task")
    )


def cost_top_users(*, since: datetime, until: datetime, limit: int = 10) -> list[dict]:
    """The users whose model calls cost most in [since, until]."""
    return list(
        LLMCall.objects.filter(created_at__gte=since, created_at__lte=until, user__isnull=False)
        .values("user_id", "user__username")
        .annotate(calls=Count("id"), cost_usd=Sum("cost_usd"),
                  tokens=Sum("prompt_tokens") + Sum("completion_tokens"))
        .order_by("-cost_usd", "user_id")[:limit]
    )


def unpriced_models(*, window: Window) -> list[dict]:
    """Models that made calls in the window but have no LLM_PRICES entry: their cost shows as $0."""
    rows = (_calls_in(window).exclude(task="embed").values("model")
            .annotate(calls=Count("id"), tokens=Sum("prompt_tokens") + Sum("completion_tokens")).order_by("model"))
    return [row for row in rows if not model_price(row["model"])]


def users_dreamed_count(*, window: Window) -> int:
    """Distinct users the memory system worked for in the window.

    A user counts when one of their sessions was dreamed, a per-user run (deep/weekly) ran for them,
    or a model call was billed to them. UNION removes duplicates in the database.
    """
    sessions = (
        ChatSession.objects.filter(dreamed_at__gte=window.since, dreamed_at__lte=window.until)
        .values("user_id").order_by()
    )
    runs = _runs_in(window).filter(user__isnull=False).values("user_id").order_by()
    calls = _calls_in(window).filter(user__isnull=False, phase__in=MEMORY_PHASES).values("user_id").order_by()
    return sessions.union(runs, calls).count()


def cost_estimate(*, window: Window) -> dict:
    """Estimated memory cost per user per month, from stored LLMCall rows.

    per_user_per_month = memory_cost_in_window / users_dreamed_in_window × 30 / window_days
    """
    memory = _calls_in(window).filter(phase__in=MEMORY_PHASES).aggregate(s=Sum("cost_usd"))
    everything = _calls_in(window).aggregate(s=Sum("cost_usd"), n=Count("id"))
    memory_cost, total_cost = memory["s"] or Decimal("0"), everything["s"] or Decimal("0")
    users = users_dreamed_count(window=window)
    per_user_month = None
    if users:
        per_user_month = (memory_cost / users * DAYS_PER_MONTH / window.days).quantize(MONEY_PLACES, ROUND_HALF_UP)
    return {
        "days": window.days,
        "calls": everything["n"],
        "total_cost_usd": total_cost,
        "memory_cost_usd": memory_cost,
        "users_dreamed": users,
        "per_user_per_month_usd": per_user_month,
    }


def audit_summary(*, window: Window) -> dict:
    """Staff labels on candidates heard in the window; precision = correct / labelled."""
    counts = Candidate.objects.filter(created_at__gte=window.since, created_at__lte=window.until).aggregate(
        correct=Count("id", filter=Q(audit=Candidate.Audit.CORRECT)),
        extraction_error=Count("id", filter=Q(audit=Candidate.Audit.EXTRACTION_ERROR)),
    )
    labelled = counts["correct"] + counts["extraction_error"]
    return {**counts, "labelled": labelled, "precision": counts["correct"] / labelled if labelled else None}


def report_build(*, days: int = 7, now: datetime | None = None, recent: int = 20) -> dict:
    """Every number of the dashboard, for one window."""
    window = report_window(days=days, now=now)
    totals = run_totals(window=window)
    return {
        "window": window,
        "recent_runs": runs_recent(limit=recent),
        "totals": totals,
        "triage": triage_breakdown(window=window),
        "skipped_by_kind": skipped_by_kind(window=window),
        "outcomes_per_day": outcomes_per_day(window=window),
        "rejection": {
            "candidates_created": totals["candidates_created"],
            "unverified_rejected": totals["unverified_rejected"],
            "rate": rejection_rate(
                candidates_created=totals["candidates_created"], unverified_rejected=totals["unverified_rejected"]
            ),
        },
        "llm_per_day": llm_usage_per_day(window=window),
        "llm_by_phase": llm_usage_by_phase(window=window),
        "llm_by_task": llm_usage_by_task(window=window),
        "embedding_tokens": _calls_in(window).filter(task="embed").aggregate(s=Sum("prompt_tokens"))["s"] or 0,
        "unpriced_models": unpriced_models(window=window),
        "top_users_this_month": cost_top_users(
            since=timezone.localtime(window.until).replace(day=1, hour=0, minute=0, second=0, microsecond=0),
            until=window.until,
        ),
        "cost": cost_estimate(window=window),
        "audit": audit_summary(window=window),
        "slowest_runs": runs_slowest(window=window),
        "failed_runs": runs_failed(window=window),
    }


def _plain(value):
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, DreamRun):
        return run_summary(value)
    if isinstance(value, Window):
        return {"since": value.since.isoformat(), "until": value.until.isoformat(), "days": value.days}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def report_as_data(report: dict) -> dict:
    """The report with only JSON types (money as strings so no cent is lost to floats)."""
    return _plain(report)



