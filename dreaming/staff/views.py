"""Staff pages for dreaming. Numbers come from dreaming/staff/reports.py; charts from dreaming/staff/charts.py."""
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render

from dreaming.providers.embedding_space import embedding_space_problem
from dreaming.staff.charts import bar_chart, line_chart
from dreaming.staff.reports import OUTCOME_FIELDS, report_build

DAY_CHOICES = (1, 7, 14, 30, 90)
DEFAULT_DAYS = 7


def _days_from(request) -> tuple[int, str]:
    raw = request.GET.get("days", "")
    if not raw:
        return DEFAULT_DAYS, ""
    if raw.isdigit() and 1 <= int(raw) <= 365:
        return int(raw), ""
    return DEFAULT_DAYS, f"“days” must be a whole number from 1 to 365; showing {DEFAULT_DAYS}."


def _charts(report: dict) -> dict:
    days = [f"{row['day']:%m-%d}" for row in report["outcomes_per_day"]]
    triage = report["triage"]
    return {
        "triage": bar_chart(
            title="Sessions by triage kind", labels=list(triage), series={"sessions": list(triage.values())}
        ),
        "outcomes": line_chart(
            title="Deep sleep and weekly outcomes per day", labels=days,
            series={name: [row[name] for row in report["outcomes_per_day"]] for name in OUTCOME_FIELDS},
        ),
        "cost": bar_chart(
            title="Model cost per day (USD)", labels=[f"{row['day']:%m-%d}" for row in report["llm_per_day"]],
            series={"cost USD": [row["cost_usd"] for row in report["llm_per_day"]]},
        ),
        "tokens": line_chart(
            title="Tokens per day", labels=[f"{row['day']:%m-%d}" for row in report["llm_per_day"]],
            series={
                "prompt": [row["prompt_tokens"] for row in report["llm_per_day"]],
                "completion": [row["completion_tokens"] for row in report["llm_per_day"]],
            },
        ),
    }


@staff_member_required
def dashboard(request):
    days, error = _days_from(request)
    report = report_build(days=days)
    rate = report["rejection"]["rate"]
    return render(request, "dreaming/dashboard.html", {
        "report": report, "charts": _charts(report), "days": days, "day_choices": DAY_CHOICES, "days_error": error,
        "rejection_percent": None if rate is None else rate * 100,
        "embedding_problem": embedding_space_problem(),  # says what to run when the embedder changed
    })
