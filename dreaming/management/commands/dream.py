"""manage.py dream --now [--phase light|deep|weekly|all] [--user USERNAME] [--dry-run] [--backfill]
manage.py dream --retry-failed [--user USERNAME]"""
import logging
from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm
from django.utils import timezone

from dreaming.management.lookups import user_by_name
from dreaming.models import DreamRun

PHASES = {"light": ["light"], "deep": ["deep"], "weekly": ["weekly"], "all": ["light", "deep", "weekly"]}


def ProgressBar(stream, label: str):  # noqa: N802 — used like the class it replaced
    """A tqdm bar on stderr (stdout stays clean for the summary), fed the pipeline's progress(done, total)."""
    bar = tqdm(total=0, desc=f"{label:<8}", file=stream, dynamic_ncols=True, mininterval=0.2)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return progress


class Command(BaseCommand):
    help = "Run dreaming immediately (light sleep, deep sleep, weekly) or replay imported history with --backfill."

    def add_arguments(self, parser):
        parser.add_argument("--now", action="store_true", help="Run now (without it the command only explains itself).")
        parser.add_argument("--phase", choices=sorted(PHASES), help="Default: light then deep.")
        parser.add_argument("--user", metavar="USERNAME", help="Only this user.")
        parser.add_argument("--dry-run", action="store_true", help="Report what would change; write nothing.")
        parser.add_argument("--backfill", action="store_true", help="Replay imported history night by night.")
        parser.add_argument("--retry-failed", action="store_true",
                            help='Re-queue the sessions light sleep gave up on ("gave up after N attempts").')

    def handle(self, *args, now, phase, user, dry_run, backfill, retry_failed, **options):
        if retry_failed:
            from dreaming.pipeline.light import sessions_retry_failed

            count = sessions_retry_failed(user=self._user(user))
            self.stdout.write(f"{count} session(s) re-queued for light sleep.")
            if not now:
                return
        if not now:
            self.stdout.write(
                "Dreaming runs on its django-q2 schedules (see `manage.py dream_schedule`); "
                "add --now to run it immediately."
            )
            return
        if backfill and phase:
            raise CommandError("--backfill replays all phases in time order; leave out --phase.")
        target = self._user(user)
        if options["verbosity"] < 2:
            # One structured log line per run is for the scheduled workers' logs; here the
            # progress bar and the summary line say it (-v 2 shows the run lines too).
            logging.getLogger("dreaming.pipeline.runs").setLevel(logging.WARNING)
        if backfill:
            from dreaming.pipeline.backfill import dream_backfill

            runs = dream_backfill(user=target, dry_run=dry_run, progress=ProgressBar(self.stderr, "backfill")).runs
        else:
            runs = []
            for name in PHASES[phase] if phase else ["light", "deep"]:
                runs += getattr(self, f"_{name}")(user=target, dry_run=dry_run)
        self.stdout.write(summary_line(runs, dry_run=dry_run))
        failed = [run for run in runs if run.status == DreamRun.Status.FAILED]
        if failed:
            raise CommandError(f"{plural(len(failed), 'run')} failed; first: {failed[0].error.splitlines()[0][:300]}")

    def _user(self, username):
        if not username:
            return None
        return user_by_name(username)

    def _light(self, *, user, dry_run):
        from dreaming.pipeline.light import light_sleep_sweep

        from dreaming.pipeline.claims import sessions_waiting

        runs, sessions = [], 0
        tty = self.stderr.isatty()
        while True:  # one sweep takes a batch; repeat until every idle session is taken
            try:
                run = light_sleep_sweep(user=user, dry_run=dry_run)
            except Exception as exc:
                raise CommandError(f"Light sleep failed: {type(exc).__name__}: {exc}") from exc
            runs.append(run)
            sessions += run.sessions_claimed
            if tty:  # redrawn in place on a terminal only; a log gets the one line below
                self.stderr.write(f"\rlight    {plural(sessions, 'session')}…", ending="")
            if dry_run or run.sessions_claimed == 0 or run.sessions_done + run.sessions_skipped == 0:
                break
        self.stderr.write(("\r" if tty else "") + light_line(runs, sessions_waiting(now=timezone.now(), user=user)))
        return runs

    def _deep(self, *, user, dry_run):
        if user is None and not dry_run:
            return self._units("deep")
        from dreaming.pipeline.deep import deep_sleep_all

        return [deep_sleep_all(dry_run=dry_run, users=[user] if user else None, progress=ProgressBar(self.stderr, "deep"))]

    def _weekly(self, *, user, dry_run):
        if user is None and not dry_run:
            return self._units("weekly")
        from dreaming.pipeline.weekly import weekly_consolidate_all

        return [weekly_consolidate_all(dry_run=dry_run, users=[user] if user else None, progress=ProgressBar(self.stderr, "weekly"))]

    def _units(self, phase):
        """Join tonight's pool of units (planned here if the schedule has not yet), like any worker."""
        from dreaming.pipeline.light import worker_name
        from dreaming.pipeline.units import units_plan, units_work

        units_plan(phase=phase)
        report = units_work(phase=phase, worker=f"cmd:{worker_name()}", progress=ProgressBar(self.stderr, phase))
        if report.stopped:
            raise CommandError(f"{phase}: stopped, the model is unavailable: {report.stopped.splitlines()[0][:300]}")
        return report.runs


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def light_line(runs: list[DreamRun], waiting) -> str:
    """One line for light sleep: what it dreamed, what it skipped and what still waits, and why."""
    done, skipped = sum(run.sessions_done for run in runs), sum(run.sessions_skipped for run in runs)
    line = f"light    {plural(done, 'session')} dreamed"
    if skipped:
        line += f", {skipped} skipped"
    reasons = [
        (waiting.not_idle, "to be idle ({} min without a message)".format(round(settings.DREAM_IDLE_SECONDS / 60))),
        (waiting.memory_off, "because memory is off for their user"),
        (waiting.claimed, "for another worker that is dreaming them"),
    ]
    waits = [f"{plural(n, 'session')} {'waits' if n == 1 else 'wait'} {why}" for n, why in reasons if n]
    return line + ("; " + "; ".join(waits) if waits else "; nothing else waits")


def summary_line(runs: list[DreamRun], *, dry_run: bool) -> str:
    def total(name):
        return sum(getattr(run, name) for run in runs)

    skipped: dict[str, int] = {}
    for run in runs:
        for kind, n in (run.skipped_by_kind or {}).items():
            skipped[kind] = skipped.get(kind, 0) + int(n)
    skipped_text = ", ".join(f"{kind} {n}" for kind, n in sorted(skipped.items())) or "none"
    cost = sum((Decimal(run.cost_usd) for run in runs), Decimal(0))
    prefix = "Dry run (nothing written): would have " if dry_run else ""
    return (
        f"{prefix}sessions {total('sessions_done')} (skipped: {skipped_text}); "
        f"candidates {total('candidates_created')}; promoted {total('promoted')}; reinforced {total('reinforced')}; "
        f"pending {total('pending')}; dropped {total('dropped')}; superseded {total('superseded')}; "
        f"merged {total('merged')}; evicted {total('evicted')}; expired {total('expired')}; "
        f"LLM calls {total('llm_calls')}; cost ${cost:.4f}"
    )
