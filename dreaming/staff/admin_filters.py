"""The candidate list's filters and score column: reasons grouped by kind, runs that heard something."""
from django.contrib import admin
from django.db.models import Count
from django.db.models.expressions import RawSQL
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from dreaming import models


# A reason's kind: its text with every number as N, up to a parenthesis ("Promoted with score 0.54." and
# "… 0.71." are one kind, "Promoted with score N."), cut to 80 characters. The same SQL groups and filters.
REASON_KIND_SQL = (
    "left(split_part(regexp_replace(\"dreaming_candidate\".\"reason\", '[0-9]+([.][0-9]+)?', 'N', 'g'), ' (', 1), 80)"
)


class ReasonFilter(admin.SimpleListFilter):
    """The most common kinds of reason (numbers and details folded together), plus "no reason"."""

    title = _("reason")
    parameter_name = "reason"
    NONE = "__none__"
    TOP = 15

    def lookups(self, request, model_admin):
        kinds = (
            models.Candidate.objects.exclude(reason="").annotate(kind=RawSQL(REASON_KIND_SQL, []))
            .values("kind").annotate(n=Count("id")).order_by("-n", "kind")[: self.TOP]
        )
        return [(row["kind"], f"{Truncator(row['kind']).chars(60)} ({row['n']})") for row in kinds] + [
            (self.NONE, _("(no reason)"))
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value is None:
            return queryset
        if value == self.NONE:
            return queryset.filter(reason="")
        return queryset.annotate(reason_kind=RawSQL(REASON_KIND_SQL, [])).filter(reason_kind=value)


class RunFilter(admin.SimpleListFilter):
    """Recent runs that produced candidates; any run id also works in the URL (?run=<id>)."""

    title = _("dream run")
    parameter_name = "run"
    RECENT = 10

    def lookups(self, request, model_admin):
        runs = models.DreamRun.objects.filter(candidates__isnull=False).distinct().order_by("-started_at")
        return [(str(run.pk), f"#{run.pk} {run.get_phase_display()} {run.started_at:%Y-%m-%d %H:%M}")
                for run in runs[: self.RECENT]]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        if not value.isdigit():
            return queryset.none()
        return queryset.filter(run_id=int(value))


def score_summary(breakdown: dict, score) -> str:
    parts = sorted(
        ((name, value) for name, value in (breakdown or {}).items() if isinstance(value, (int, float))),
        key=lambda item: -abs(item[1]),
    )
    head = f"{score:.2f}" if isinstance(score, (int, float)) else "—"
    if not parts:
        return head
    return head + " (" + ", ".join(f"{name} {value:.2f}" for name, value in parts[:3]) + ")"
