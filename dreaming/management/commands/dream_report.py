"""The dreaming dashboard's numbers on the command line (same selectors as /staff/dreaming/)."""
import json

from django.core.management.base import BaseCommand, CommandError

from dreaming.staff.reports import OUTCOME_FIELDS, report_as_data, report_build


def _money(value) -> str:
    return "—" if value is None else f"${value}"


class Command(BaseCommand):
    help = "Print the dreaming dashboard's numbers for the last N days (text, or --json)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=7, help="Window length in days (1-365, default 7).")
        parser.add_argument(
            "--json", dest="as_json", action="store_true", help="Print one JSON document instead of text."
        )

    def handle(self, *args, days: int, as_json: bool, **options):
        if not 1 <= days <= 365:
            raise CommandError("--days must be between 1 and 365.")
        report = report_build(days=days)
        if as_json:
            self.stdout.write(json.dumps(report_as_data(report), indent=2, ensure_ascii=False))
            return
        self.stdout.write("\n".join(report_lines(report)))


def report_lines(report: dict) -> list[str]:
    window, totals, cost, rejection = report["window"], report["totals"], report["cost"], report["rejection"]
    rate = "—" if rejection["rate"] is None else f"{rejection['rate'] * 100:.1f}%"
    lines = [
        f"Dreaming report: last {window.days} days ({window.since:%Y-%m-%d %H:%M} → {window.until:%Y-%m-%d %H:%M})",
        f"Runs: {totals['runs']} ({totals['failed']} failed); sessions done {totals['sessions_done']}, "
        f"skipped {totals['sessions_skipped']}, failed {totals['sessions_failed']}",
        "Triage: " + ", ".join(f"{kind} {n}" for kind, n in report["triage"].items()),
        "Outcomes: " + ", ".join(f"{name} {totals[name]}" for name in OUTCOME_FIELDS),
        f"Unverified-quote rejection: {rate} ({rejection['unverified_rejected']} rejected, "
        f"{rejection['candidates_created']} kept)",
        f"Model calls: {sum(r['calls'] for r in report['llm_per_day'])}, "
        f"tokens {sum(r['prompt_tokens'] for r in report['llm_per_day'])} in / "
        f"{sum(r['completion_tokens'] for r in report['llm_per_day'])} out, cost {_money(cost['total_cost_usd'])}",
        f"Estimated cost per user per month: {_money(cost['per_user_per_month_usd'])} "
        f"(memory cost {_money(cost['memory_cost_usd'])} / {cost['users_dreamed']} users × 30 / {cost['days']})",
        f"Embedding tokens (apart from prompt tokens): {report['embedding_tokens']}",
        "Cost by task: " + (", ".join(f"{r['task']} ${r['cost_usd']} ({r['calls']} calls)" for r in report["llm_by_task"])
                            or "none"),
        "Top users by cost this month: " + (", ".join(
            f"{r['user__username']} ${r['cost_usd']} ({r['calls']} calls)" for r in report["top_users_this_month"]
        ) or "none"),
        f"Audit labels: {report['audit']['correct']} correct, {report['audit']['extraction_error']} extraction errors",
        "Per day (day: calls, cost | promoted, pending, superseded, merged, evicted):",
    ]
    for usage, outcome in zip(report["llm_per_day"], report["outcomes_per_day"]):
        lines.append(
            f"  {usage['day']:%Y-%m-%d}: {usage['calls']}, ${usage['cost_usd']} | "
            + ", ".join(str(outcome[name]) for name in OUTCOME_FIELDS)
        )
    for row in report["unpriced_models"]:
        lines.append(f"WARNING: model {row['model']!r} has no LLM_PRICES entry: its {row['calls']} calls "
                     f"({row['tokens']} tokens) are counted at $0 — add its price to LLM_PRICES")
    lines.append("Slowest runs:")
    lines += [f"  #{r.pk} {r.phase} {r.duration_seconds:.1f}s {r.status}" for r in report["slowest_runs"]] or ["  none"]
    lines.append("Failures:")
    lines += [
        f"  #{r.pk} {r.phase} {r.started_at:%Y-%m-%d %H:%M}: {(r.error.strip().splitlines() or [''])[-1][:200]}"
        for r in report["failed_runs"]
    ] or ["  none"]
    return lines
