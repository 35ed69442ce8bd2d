"""`python -m bench`: run the benchmarks and evaluations on a database of their own, write the report.

The bench never touches the demo database: it creates `bench_memcenter` (MEMCENTER_TEST_DB, default
here) on the same Postgres server, fills it, and drops it at the end (`--keepdb` keeps it to look
around). The 1M-row recall table lives in a second, cached database (`bench_memcenter_big`) that is
built once with COPY and reused while its shape matches (see bench/speed_recall.py).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CACHE_DIR = BENCH_DIR / ".cache"

# name → module; each module has `run(ctx) -> list[Figure]`. Order = report order.
BENCHES = {
    "context": "bench.speed_context",
    "dreaming": "bench.speed_dreaming",
    "night": "bench.speed_night",
    "recall": "bench.speed_recall",
    "listpage": "bench.speed_listpage",
    "api": "bench.speed_api",
    "locomo": "bench.quality_locomo",
    "msc": "bench.quality_msc",
    "wildchat": "bench.quality_wildchat",
    "memorybank": "bench.quality_memorybank",
    "facts": "bench.workload_facts",
    "engine": "bench.quality_engine",
}


@dataclass
class BenchContext:
    datasets: Path
    workdir: Path
    mode: str = "full"  # full | quick | smoke (the test suite's tiny sizes)
    details: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    sections: list[tuple[str, str]] = field(default_factory=list)  # (title, Markdown) shown under the table
    progress: bool = True
    profile: bool = False  # --profile: the dreaming row adds a cProfile summary of its phases

    @property
    def quick(self) -> bool:
        return self.mode != "full"

    def pick(self, *, full, quick, smoke=None):
        """The size for this mode (smoke falls back to quick)."""
        if self.mode == "full":
            return full
        return quick if self.mode == "quick" or smoke is None else smoke

    def log(self, text: str) -> None:
        if self.progress:
            print(f"  {text}", file=sys.stderr, flush=True)

    def dataset(self, relative: str) -> Path | None:
        path = self.datasets / relative
        return path if path.exists() else None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description="memcenter benchmarks and evaluations.")
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with locomo/, msc/, wildchat_triage/, memorybank_cn/")
    parser.add_argument("--only", default="", help=f"comma-separated subset of: {', '.join(BENCHES)}")
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a fast check (not the reported sizes)")
    parser.add_argument("--out", default=str(BENCH_DIR), help="folder for report.md and report.json")
    parser.add_argument("--keepdb", action="store_true", help="keep the bench_memcenter database afterwards")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--profile", action="store_true", help="profile the dreaming row's light and deep sleep (report sections)")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()] or list(BENCHES)
    unknown = [name for name in chosen if name not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    args.chosen = chosen
    return args


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
    os.environ.setdefault("MEMCENTER_TEST_DB", "bench_memcenter")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # only so settings start without a secret key
    import django

    django.setup()
    from django.conf import settings

    # DEBUG would log every query and slow the measured code down; the bench wants production behaviour.
    settings.DEBUG = False
    if "testserver" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(BENCH_DIR.parent))
    django_setup()
    from django.db import connection

    from bench.report import Figure, Report

    report = Report()
    datasets = Path(args.datasets).resolve()
    old_name = connection.settings_dict["NAME"]
    started, load_start = time.perf_counter(), os.getloadavg()[0]
    print(f"bench: creating database {connection.settings_dict['TEST']['NAME']} …", file=sys.stderr, flush=True)
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    try:
        with tempfile.TemporaryDirectory(prefix="memcenter-bench-") as tmp:
            ctx = BenchContext(
                datasets=datasets, workdir=Path(tmp), mode="quick" if args.quick else "full", progress=not args.quiet,
                profile=args.profile,
            )
            if not datasets.is_dir():
                ctx.notes.append(f"datasets folder {datasets} not found: quality evaluations skipped")
            for name in args.chosen:
                print(f"bench: {name} …", file=sys.stderr, flush=True)
                t0 = time.perf_counter()
                try:
                    figures = importlib.import_module(BENCHES[name]).run(ctx)
                except Exception as exc:  # one broken benchmark must not hide the others
                    traceback.print_exc()
                    figures = [Figure(bench=name, name=f"{name}: failed", ours=_one_line(exc), passed=False)]
                report.add(figures)
                print(f"bench: {name} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            report.details, report.notes, report.sections = ctx.details, ctx.notes, ctx.sections
    finally:
        from dreaming.memory.context_cache import memory_md_cache_stop
        from dreaming.memory.recall_stats import recall_stats_stop

        memory_md_cache_stop()  # its listener holds a connection to the database dropped next
        recall_stats_stop()  # the recalls' counts go to that database now, not at exit after it is gone
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=args.keepdb)
    report.meta = _meta(args, time.perf_counter() - started, load=(load_start, os.getloadavg()[0]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    md, js = report.write(out)
    print()
    print(report.table())
    print(f"\nwrote {md} and {js} ({report.meta['duration']})")
    return 1 if any(f.name.endswith(": failed") for f in report.figures) else 0


def _one_line(exc: Exception) -> str:
    first = (str(exc).splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"[:200].replace("|", "/")


def _meta(args, seconds: float, *, load: tuple[float, float]) -> dict:
    import platform

    from django.conf import settings

    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "mode": "quick" if args.quick else "full",
        "benchmarks": ",".join(args.chosen),
        "cpus": os.cpu_count(),
        "load average (start → end)": f"{load[0]:.1f} → {load[1]:.1f}",
        "python": platform.python_version(),
        "dreamer": settings.LLM_BACKEND,
        "embedder": f"{settings.EMBEDDING_BACKEND} ({settings.EMBEDDING_DIM} dims)",
        "duration": f"{seconds / 60:.1f} min",
    }
