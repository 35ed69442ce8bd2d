"""The dreaming row's `dream --now` in a process of its own, so its peak memory is its own.

`python -m bench.dream_process [--profile N] PHASE...` runs `manage.py dream --now --phase PHASE` for each
phase, in order, against the database DATABASE_URL names, and prints one JSON object: per phase its
seconds, the command's summary line and the SQL statements it sent by verb and table; with
--profile, the N functions with the most cumulative time (cProfile) per phase. The parent
(`dream_subprocess`) reads the child's peak resident memory from os.wait4.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

_TABLE_RE = re.compile(r'\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


def statement_key(sql: str) -> str:
    """'UPDATE chat_chatsession', 'SELECT chat_message' …: what a statement does, to what (its first table)."""
    verb = (sql.lstrip().split(None, 1) or ["?"])[0].upper()
    table = _TABLE_RE.search(sql)
    return f"{verb} {table.group(1) if table else '?'}"


def _phase_run(phase: str, *, profile: int) -> dict:
    from django.core.management import call_command
    from django.db import connection

    statements: Counter = Counter()

    def count(execute, sql, params, many, context):
        statements[statement_key(sql)] += 1
        return execute(sql, params, many, context)

    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    out = io.StringIO()
    with connection.execute_wrapper(count):
        started, cpu_started = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        call_command("dream", "--now", "--phase", phase, stdout=out, stderr=io.StringIO())
        if profiler:
            profiler.disable()
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    result = {"seconds": seconds, "cpu_seconds": cpu_seconds, "summary": out.getvalue().strip(),
              "statements": dict(statements.most_common())}
    if profiler:
        import pstats

        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(profile)
        result["profile"] = text.getvalue()
    return result


def _code_load() -> None:
    """Import what `dream` imports on first use (the pipeline, the engine and its compiled rules)
    before any clock starts: the engine-alone floor is timed in a process that has imported the
    engine already, and a worker pays this once, not per run."""
    import importlib

    for module in ("dreaming.management.commands.dream", "dreaming.pipeline.light", "dreaming.pipeline.deep",
                   "dreaming.pipeline.units", "dreaming.pipeline.weekly", "dreaming.providers.local"):
        importlib.import_module(module)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dream_process")
    parser.add_argument("phases", nargs="+", choices=("light", "deep", "weekly"))
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="report the top N functions per phase")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.runner import django_setup

    django_setup()
    _code_load()
    from dreaming.memory.context_cache import memory_md_cache_stop

    try:
        phases = {phase: _phase_run(phase, profile=args.profile) for phase in args.phases}
    finally:
        memory_md_cache_stop()
    print(json.dumps(phases))
    return 0


@dataclass
class DreamProcess:
    phases: dict[str, dict]
    peak_rss_mb: float | None  # None: run in this process (see dream_subprocess)

    def seconds(self, phase: str) -> float:
        return self.phases[phase]["seconds"]

    def summary(self, phase: str) -> str:
        return self.phases[phase]["summary"]

    def statements(self, phase: str) -> int:
        return sum(self.phases[phase]["statements"].values())


def _database_url() -> str:
    """The URL of the database this process uses now (the bench's own), for the child's DATABASE_URL."""
    from django.db import connection

    db = connection.settings_dict
    query = {key: value for key, value in (db.get("OPTIONS") or {}).items() if isinstance(value, (str, int))}
    netloc = f"{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}@"
    if db["HOST"].startswith("/"):  # a socket folder (the embedded server) goes in the query
        query["host"] = db["HOST"]
        netloc += f":{db['PORT']}" if db["PORT"] else ""
    else:
        netloc += db["HOST"] + (f":{db['PORT']}" if db["PORT"] else "")
    return f"postgresql://{netloc}/{quote(db['NAME'])}" + (f"?{urlencode(query)}" if query else "")


def dream_subprocess(*phases: str, profile: int = 0) -> DreamProcess:
    """`dream --now` for each phase in a child process; its timings, statements and peak RSS.

    Inside a transaction (the test suite's smoke run) a child could not see the data: the phases run
    here instead and no peak RSS is reported."""
    from django.db import connection

    if connection.in_atomic_block:
        return DreamProcess(phases={phase: _phase_run(phase, profile=profile) for phase in phases}, peak_rss_mb=None)
    args = [sys.executable, "-m", "bench.dream_process", *phases] + (["--profile", str(profile)] if profile else [])
    env = {**os.environ, "DATABASE_URL": _database_url()}
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a chatty child can not block on it
        proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=errors,
                                cwd=Path(__file__).resolve().parent.parent)
        with proc.stdout:
            stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage (ru_maxrss: KiB on Linux)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            tail = errors.read().decode(errors="replace").strip().splitlines()[-5:]
            raise RuntimeError(f"dream process exited with {proc.returncode}: " + " | ".join(tail))
    return DreamProcess(phases=json.loads(stdout.decode().strip().splitlines()[-1]), peak_rss_mb=usage.ru_maxrss / 1024)


if __name__ == "__main__":
    sys.exit(main())
