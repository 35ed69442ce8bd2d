"""Where one recall's time goes, stage by stage, in the recall row's cached big database.

    DJANGO_DEBUG=1 .venv/bin/python -m bench.diag_recall [--rows 100000] [--queries 100] [--no-cache]

Needs the database the recall row built (`python -m bench --only recall --quick` builds the 100k one).
Runs recall() as the bench does (k=10, MEMORY.md cache and held memories on unless --no-cache) and
wraps its stages: the wall time of each, summed per query, then p50/p95 over the queries, and every
SQL statement by what it is for. A stage's time includes the SQL it sends. Last, the CPU its
connection's Postgres backend used per recall (read from /proc: the embedded server runs here),
which a loaded machine inflates far less than the wall times.
"""
from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from contextlib import contextmanager

from bench.report import percentile
from bench.runner import django_setup


class Stages:
    def __init__(self):
        self.current: dict[str, float] = defaultdict(float)
        self.runs: list[dict[str, float]] = []

    def wrap(self, module, name: str, label: str | None = None):
        original = getattr(module, name, None)
        if original is None:  # another version of recall (the script also times an older checkout)
            return

        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.current[label or name] += time.perf_counter() - started

        setattr(module, name, timed)

    def sql(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.current["sql: " + _sql_kind(sql)] += time.perf_counter() - started

    @contextmanager
    def one(self):
        self.current = defaultdict(float)
        started, cpu = time.perf_counter(), time.process_time()
        yield
        self.current["TOTAL"] = time.perf_counter() - started
        self.current["TOTAL, this process's CPU"] = time.process_time() - cpu
        self.runs.append(dict(self.current))

    def report(self) -> str:
        names = sorted({n for run in self.runs for n in run}, key=lambda n: (n != "TOTAL", n))
        lines = [f"{'stage':44} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}"]
        for name in names:
            values = [1000 * run.get(name, 0.0) for run in self.runs]
            lines.append(f"{name:44} {percentile(values, 50):8.2f} {percentile(values, 95):8.2f} "
                         f"{sum(values) / len(values):8.2f}")
        return "\n".join(lines)


def _sql_kind(sql: str) -> str:
    for needle, kind in (("memory_recall_shortlist", "index shortlist"), ("WITH words AS", "re-read + excerpt search"),
                         ("EXECUTE recall_excerpt_search", "excerpt search sent ahead (prepared; the send only)"),
                         ("EXECUTE recall_held_read", "re-read (+ sources) (prepared)"),
                         ("dreaming_memorysource", "sources + record"), ("m.id = ANY(%(ids)s", "held rows re-read"),
                         ("dreaming_tombstone", "tombstones"), ("memory_ids FROM", "gate")):
        if needle in sql:
            return kind
    return " ".join(sql.split())[:40]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE the excerpt search of one query")
    args = parser.parse_args()
    django_setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from bench.recall_tables import BIG_DB, FULL_ROWS, TARGET_USERNAME
    from bench.synth import user_turns
    from dreaming.memory import excerpts, prepared
    from dreaming.memory import recall as recall_module
    from dreaming.memory.context_cache import memory_md_cache_wait_live
    from dreaming.providers import get_embedder

    connection.settings_dict["NAME"] = BIG_DB if args.rows == FULL_ROWS else f"{BIG_DB}_{args.rows}"
    settings.MEMORY_MD_CACHE = not args.no_cache
    user = get_user_model().objects.get(username=TARGET_USERNAME)
    embedder = get_embedder()
    queries = user_turns(count=args.queries, seed=17)
    if args.explain:
        return _explain(user=user, query=queries[0], excerpts=excerpts, connection=connection)
    stages = Stages()
    stages.wrap(recall_module, "_memory_md_ids_if_on", "1 gate / MEMORY.md ids")
    stages.wrap(embedder, "embed", "2 query embedding")
    stages.wrap(recall_module, "held_ranking", "3a held ranking (numpy)")
    stages.wrap(recall_module, "_memories_ranked", "3 memories ranked (all; with the excerpt search's SQL)")
    stages.wrap(prepared._SentQuery, "_received", "3b excerpt search: waited for after the ranking")
    stages.wrap(recall_module, "excerpts_found", "4 excerpts: rows read (all)")
    stages.wrap(recall_module, "excerpt_candidates", "4 excerpts: search and rows read (all)")
    stages.wrap(excerpts, "_without_forgotten", "4b excerpts: tombstone check")
    stages.wrap(excerpts, "_showable", "4c excerpts: sensitive filter, one per wording")
    stages.wrap(recall_module, "recall_fuse", "5 fusion (with the kept excerpts' wording)")
    stages.wrap(excerpts.Excerpt, "worded", "5a excerpts: wording (the kept ones)")
    stages.wrap(recall_module, "_sources_for", "6 sources + record")
    if settings.MEMORY_MD_CACHE:
        memory_md_cache_wait_live()
    with connection.execute_wrapper(stages.sql):
        for query in queries[:20]:
            recall_module.recall(user=user, query=query, k=10, embedder=embedder)
        stages.runs.clear()
        server_before = _backend_cpu(connection)
        for query in queries:
            with stages.one():
                recall_module.recall(user=user, query=query, k=10, embedder=embedder)
        server = _backend_cpu(connection) - server_before
    print(f"load {os.getloadavg()}; {len(queries)} queries; cache {'on' if settings.MEMORY_MD_CACHE else 'off'}; "
          f"Postgres CPU of this connection's backend per recall {1000 * server / len(queries):.2f} ms; "
          f"Django's debug cursor {'on' if connection.queries_logged else 'off'}")
    print(stages.report())
    with connection.cursor() as cursor:  # generic plans are what prepared.py asks for
        cursor.execute("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name")
        print("prepared (generic plans, custom plans):", ", ".join(f"{n} {g}/{c}" for n, g, c in cursor.fetchall()))


def _backend_cpu(connection) -> float:
    """CPU seconds of this connection's server process so far (the embedded server runs here; the
    clock ticks are 10 ms, so read it over many recalls). NaN when it cannot be read."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _explain(*, user, query: str, excerpts, connection) -> None:
    sql, params = excerpts.excerpt_search(user_id=user.pk, persona_id=None, query=query, limit=20)
    print("query:", query, "| terms:", params["terms"])
    with connection.cursor() as cursor:
        for _ in range(3):  # the last of three: warm buffers
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
            plan = [row[0] for row in cursor.fetchall()]
    print("\n".join(plan))


if __name__ == "__main__":
    main()
