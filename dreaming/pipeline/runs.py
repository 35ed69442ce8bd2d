"""DreamRun bookkeeping shared by every phase (light sleep, deep sleep, weekly).

Counters are added with single UPDATE statements (`col = col + n` for numbers, a jsonb merge for
per-kind dicts, all of one call in the same statement), so several workers or the providers'
accounting can add to the same run without a read-modify-write race, and a crashed run still shows
what it had done so far.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from datetime import datetime

from django.db import connection
from django.utils import timezone

from dreaming.models import DreamRun

logger = logging.getLogger("dreaming.pipeline.runs")

# JSON counters ({"document": 3, ...}) merged key by key; everything else is a number column.
_DICT_COUNTERS = {"skipped_by_kind", "sensitive_by_kind"}
RUN_COUNTERS = (
    "sessions_claimed", "sessions_done", "sessions_failed", "sessions_skipped", "sensitive_dropped",
    "candidates_created", "unverified_rejected", "tombstoned_dropped", "users_processed", "promoted",
    "reinforced", "pending", "dropped", "superseded", "merged", "evicted", "decayed", "expired",
    "feedback_applied", "llm_calls", "prompt_tokens", "completion_tokens", "embedding_calls",
)


def run_start(
    *,
    phase: str,
    user=None,
    worker: str = "",
    dry_run: bool = False,
    simulated_now: datetime | None = None,
) -> DreamRun:
    return DreamRun.objects.create(
        phase=phase,
        user=user,
        worker=worker[:120],
        started_at=timezone.now(),
        dry_run=dry_run,
        simulated_now=simulated_now,
    )


def run_add(*, run: DreamRun, **counters) -> None:
    """Add to the run's counters, e.g. run_add(run=run, sessions_done=1, skipped_by_kind={"coding": 1})."""
    _run_update(run=run, counters=counters)


def _run_update(*, run: DreamRun, counters: dict, values: dict | None = None, reload: bool = False) -> None:
    """One UPDATE: numbers added (`col = col + n`), per-kind dicts merged key by key (new = old ||
    {key: old[key] + n}, jsonb_each over the increments), `values` set; with `reload`, `run` takes the
    row's new values from the same statement. Nothing to do: no statement."""
    sets, params = [], []
    for name, value in (values or {}).items():
        sets.append(f"{_column(name)} = %s")
        params.append(value)
    for name, value in counters.items():
        column = _column(name)
        if name in _DICT_COUNTERS:
            increments = {key: n for key, n in (value or {}).items() if n}
            if increments:
                sets.append(
                    f"{column} = COALESCE({column}, '{{}}'::jsonb) || (SELECT jsonb_object_agg(inc.key, "
                    f"COALESCE(({column} ->> inc.key)::numeric, 0) + inc.value::numeric) FROM jsonb_each_text(%s::jsonb) AS inc)"
                )
                params.append(json.dumps(increments))
        elif value:
            sets.append(f"{column} = {column} + %s")
            params.append(value)
    if not sets:
        return
    sql = f"UPDATE {DreamRun._meta.db_table} SET {', '.join(sets)} WHERE id = %s"
    if not reload:
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, run.pk])
        return
    # The row as it is now, in the same statement (RETURNING), read through the model's fields.
    current = next(iter(DreamRun.objects.raw(sql + " RETURNING *", [*params, run.pk])), None)
    if current is None:
        raise DreamRun.DoesNotExist(f"run {run.pk} is gone")
    for field in DreamRun._meta.concrete_fields:
        setattr(run, field.attname, getattr(current, field.attname))


def _column(name: str) -> str:
    """The quoted column of a DreamRun field (FieldDoesNotExist for a name the model lacks)."""
    return connection.ops.quote_name(DreamRun._meta.get_field(name).column)


def run_finish(*, run: DreamRun, error: str | BaseException | None = None, counters: dict | None = None) -> DreamRun:
    """Close the run (ok, or failed with the error), its counters current (one UPDATE … RETURNING).
    `counters`: to add as it closes, in the same statement."""
    values = {"finished_at": timezone.now(), "status": DreamRun.Status.OK}
    if error:
        values["status"] = DreamRun.Status.FAILED
        values["error"] = _error_text(error)
    # Reloaded from the UPDATE itself; a user already read stays (the log line names it: no second read).
    _run_update(run=run, counters=counters or {}, values=values, reload=True)
    run_log(run)
    return run


def _error_text(error: str | BaseException) -> str:
    if isinstance(error, BaseException):
        return f"{type(error).__name__}: {error}"[:2000]
    return str(error)[:2000]


def run_users(
    *, phase: str, users: Iterable, night: Callable[..., dict[str, int]], now: datetime | None, dry_run: bool,
    worker: str, user=None, stop_on: tuple[type[BaseException], ...] = (),
    progress: Callable[[int, int], None] | None = None, refusal: Callable[[], str | None] | None = None,
) -> DreamRun:
    """One DreamRun for `night(user=…, run=…)` over `users` (deep sleep and weekly share it).

    `user` makes it that user's own run. One user's failure is recorded and the rest go on; an error
    of a `stop_on` type (the model is down) stops the walk, the users left keep their work for the
    next run. `refusal` says why the run must not start at all (the embedder changed).
    """
    run = run_start(phase=phase, user=user, worker=worker, dry_run=dry_run, simulated_now=now)
    problem = refusal() if refusal else None
    if problem:  # refuse before anything is read, embedded or paid for
        return run_finish(run=run, error=problem)
    todo = list(users)
    errors: list[str] = []
    for done, each in enumerate(todo, start=1):
        try:
            run_add(run=run, **night(user=each, run=run))
        except stop_on as exc:
            errors.append(f"user {each.pk}: provider unavailable, stopped: {exc}")
            break
        except Exception as exc:  # the user's transaction rolled back: nothing half-written
            logger.exception("%s failed for user %s", phase, each.pk)
            if user is not None:
                return run_finish(run=run, error=exc)
            errors.append(f"user {each.pk}: {type(exc).__name__}: {exc}")
        if progress:
            progress(done, len(todo))
    return run_finish(run=run, error="; ".join(errors) or None)


def runs_fail_abandoned(*, phase: str, started_before: datetime) -> int:
    """Mark runs of `phase` still "running" since before `started_before` as failed; returns how many.

    [reliability] A worker killed mid-run (kill -9, OOM, a lost machine) never calls run_finish, so
    its run would say "running" forever. One conditional UPDATE, so two sweeps doing it at once are
    harmless; a worker that was only slow and finishes later overwrites this with its own result.
    """
    return DreamRun.objects.filter(
        phase=phase, status=DreamRun.Status.RUNNING, started_at__lt=started_before
    ).update(
        status=DreamRun.Status.FAILED,
        finished_at=timezone.now(),
        error="abandoned: the worker stopped without finishing the run (killed or crashed); "
              "its claimed sessions went back to the queue after DREAM_CLAIM_STALE_SECONDS",
    )


def run_summary(run: DreamRun) -> dict:
    """One run as plain data (for the page, the JSON report and the structured log)."""
    duration = run.duration_seconds
    return {
        "id": run.pk,
        "phase": run.phase,
        "status": run.status,
        "user": run.user.get_username() if run.user_id else None,
        "worker": run.worker,
        "started_at": run.started_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "duration_seconds": round(duration, 3) if duration is not None else None,
        "dry_run": run.dry_run,
        "error": run.error,
        "cost_usd": str(run.cost_usd),
        **{name: getattr(run, name) for name in RUN_COUNTERS},
    }


def _log_value(value) -> str:
    text = "" if value is None else str(value)
    return json.dumps(text, ensure_ascii=False) if (not text or any(c in text for c in ' ="\n')) else text


def run_log(run: DreamRun) -> None:
    """One structured line per finished run: `dream_run key=value ...` (JSON-quoted when needed).

    The same fields go in `extra={"dream_run": {...}}` for a JSON log formatter.
    """
    data = run_summary(run)
    data["error"] = (data["error"] or "").strip().splitlines()[-1][:500] if data["error"] else ""
    line = " ".join(f"{key}={_log_value(value)}" for key, value in data.items())
    level = logging.WARNING if run.status == DreamRun.Status.FAILED else logging.INFO
    logger.log(level, "dream_run %s", line, extra={"dream_run": data})
