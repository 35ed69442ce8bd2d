"""Staff pages for dreaming. Numbers come from dreaming/staff/reports.py; charts from dreaming/staff/charts.py."""
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dreaming.models import Phase
from dreaming.pipeline.units import PHASES, night_progress
from dreaming.staff.charts import bar_chart, hbar_chart, line_chart
from dreaming.providers.embedding_space import embedding_space_problem
from dreaming.staff.reports import OUTCOME_FIELDS, report_build

DAY_CHOICES = (1, 7, 14, 30, 90)
DEFAULT_DAYS = 7


def _days_from(request) -> tuple[int, str]:
    raw = request.GET.get("days", "")
    if not raw:
        return DEFAULT_DAYS, ""
    try:
        days = int(raw)
    except ValueError:  # not isdigit(): it accepts "①", which int() refuses
        days = 0
    if 1 <= days <= 365:
        return days, ""
    return DEFAULT_DAYS, _("“days” must be a whole number from 1 to 365; showing %(days)d.") % {"days": DEFAULT_DAYS}


TRIAGE_LABELS = {
    "normal": gettext_lazy("normal"), "empty": gettext_lazy("empty"), "roleplay": gettext_lazy("role-play"),
    "document": gettext_lazy("document"), "coding": gettext_lazy("coding"), "translation": gettext_lazy("translation"),
}
OUTCOME_LABELS = {
    "promoted": gettext_lazy("promoted"), "pending": gettext_lazy("pending"), "superseded": gettext_lazy("superseded"),
    "merged": gettext_lazy("merged"), "evicted": gettext_lazy("evicted"),
}


def _with_phase_labels(rows: list[dict]) -> list[dict]:
    """Usage rows carry the phase's code ("light"): add its label in the reader's language."""
    labels = dict(Phase.choices)
    return [{**row, "phase_label": labels.get(row["phase"], row["phase"])} for row in rows]


def _charts(report: dict) -> dict:
    days = [f"{row['day']:%m-%d}" for row in report["outcomes_per_day"]]
    llm_days = [f"{row['day']:%m-%d}" for row in report["llm_per_day"]]
    triage = report["triage"]
    return {
        "triage": hbar_chart(
            title=_("Sessions dreamed, by triage kind"), labels=[str(TRIAGE_LABELS.get(k, k)) for k in triage],
            values=list(triage.values()), name=_("sessions"),
        ),
        "outcomes": line_chart(
            title=_("Deep sleep and weekly outcomes per day"), labels=days,
            series={str(OUTCOME_LABELS.get(name, name)): [row[name] for row in report["outcomes_per_day"]]
                    for name in OUTCOME_FIELDS},
        ),
        "cost": bar_chart(
            title=_("Model cost per day (USD)"), labels=llm_days,
            series={_("cost (USD)"): [row["cost_usd"] for row in report["llm_per_day"]]},
        ),
        "tokens": line_chart(
            title=_("Tokens per day"), labels=llm_days,
            series={
                _("prompt"): [row["prompt_tokens"] for row in report["llm_per_day"]],
                _("completion"): [row["completion_tokens"] for row in report["llm_per_day"]],
            },
        ),
    }


@staff_member_required
def dashboard(request):
    days, error = _days_from(request)
    report = report_build(days=days)
    report["llm_by_phase"] = _with_phase_labels(report["llm_by_phase"])
    rate = report["rejection"]["rate"]
    return render(request, "dreaming/dashboard.html", {
        "report": report, "charts": _charts(report), "days": days, "day_choices": DAY_CHOICES, "days_error": error,
        "rejection_percent": None if rate is None else rate * 100,
        "nights": [(Phase(phase).label, night_progress(phase=phase)) for phase in PHASES],
        "skip_tally": [(str(TRIAGE_LABELS.get(kind, kind)), n) for kind, n in report["skipped_by_kind"].items()],
        "embedding_problem": embedding_space_problem(),  # says what to run when the embedder changed
    })
