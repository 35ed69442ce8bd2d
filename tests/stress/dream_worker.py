"""A dreaming worker in its own OS process, for the reliability attacks (tests/test_reliability_* and
tests/stress/). It connects to whatever database DATABASE_URL names (the test database of the pytest
run that started it) and runs the real pipeline code, so several of them contend for real.

    python tests/stress/dream_worker.py light [--batch N] [--slow-extract SECONDS]
        light sleep sweeps back to back until a sweep claims nothing; with --slow-extract every
        extraction sleeps first (so a kill -9 lands while sessions are claimed).
    python tests/stress/dream_worker.py deep --users 3,1,2 [--now ISO] [--slow-decide SECONDS] [--slow-narrate SECONDS]
        deep_sleep_user for each user, in the given order (--slow-decide / --slow-narrate: a kill -9
        lands while the night's transaction is open, before deciding / while writing the diary).
    python tests/stress/dream_worker.py units [--units-phase deep|weekly] [--slow-narrate SECONDS]
        claim and run the night's units (dreaming/pipeline/units.py) until none is left.

Waits until the epoch in RELIABILITY_START_AT (if set) so all workers start together. Prints one
JSON line: {"worker", "runs": [ids], "claimed", "elapsed"}; exits 1 if any run failed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
os.environ.setdefault("MEMCENTER_TESTING", "1")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("phase", choices=("light", "deep", "units"))
    parser.add_argument("--units-phase", default="deep", choices=("deep", "weekly"))
    parser.add_argument("--remote", action="store_true", help="the dreamer the settings name (e.g. a fake OpenAI server)")
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--slow-extract", type=float, default=0.0)
    parser.add_argument("--slow-narrate", type=float, default=0.0)
    parser.add_argument("--slow-decide", type=float, default=0.0)
    parser.add_argument("--users", default="")
    parser.add_argument("--now", default="")
    args = parser.parse_args()

    import django

    django.setup()
    from django.utils.dateparse import parse_datetime

    from dreaming.providers.local import LocalDreamer
    from dreaming.pipeline.light import worker_name

    from dreaming.providers import get_dreamer

    dreamer = get_dreamer() if args.remote else LocalDreamer()
    if args.slow_extract:
        original = dreamer.read_session

        def slow_extract(**kwargs):
            time.sleep(args.slow_extract)
            return original(**kwargs)

        dreamer.read_session = slow_extract
    if args.slow_decide:
        import dreaming.pipeline.deep as deep_module

        original_cluster = deep_module.candidates_cluster

        def slow_cluster(**kwargs):
            time.sleep(args.slow_decide)  # under the user's lock, inside the night's transaction
            return original_cluster(**kwargs)

        deep_module.candidates_cluster = slow_cluster
    if args.slow_narrate:
        from dreaming.pipeline import deep

        original_diary_append = deep.diary_append

        def slow_diary_append(**kwargs):
            time.sleep(args.slow_narrate)  # deep sleep writes the diary last, inside its transaction
            return original_diary_append(**kwargs)

        deep.diary_append = slow_diary_append
    start_at = float(os.environ.get("RELIABILITY_START_AT") or 0)
    if start_at > time.time():
        time.sleep(start_at - time.time())
    began = time.monotonic()
    worker = f"{os.environ.get('RELIABILITY_WORKER', 'worker')}:{worker_name()}"
    runs = []
    if args.phase == "light":
        from dreaming.pipeline.light import light_sleep_sweep

        while True:
            run = light_sleep_sweep(worker=worker, batch_size=args.batch, dreamer=dreamer)
            runs.append(run)
            if run.sessions_claimed == 0:
                break
    elif args.phase == "units":
        from dreaming.pipeline.units import units_work

        runs = units_work(phase=args.units_phase, worker=worker, dreamer=dreamer).runs
    else:
        from django.contrib.auth import get_user_model

        from dreaming.pipeline.deep import deep_sleep_user

        now = parse_datetime(args.now) if args.now else None
        for pk in [int(p) for p in args.users.split(",") if p]:
            user = get_user_model().objects.get(pk=pk)
            runs.append(deep_sleep_user(user=user, now=now, dreamer=dreamer, worker=worker))
    print(json.dumps({
        "worker": worker,
        "runs": [run.pk for run in runs],
        "claimed": sum(run.sessions_claimed for run in runs),
        "failed": [run.error for run in runs if run.status != "ok"],
        "elapsed": round(time.monotonic() - began, 3),
    }))
    return 1 if any(run.status != "ok" for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
