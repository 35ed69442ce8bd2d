"""Shared helpers of the reliability attacks: seed idle sessions fast, start real worker processes on
the pytest test database, and check that every session was processed exactly once."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory, MemorySource

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).resolve().with_name("dream_worker.py")


def fact_for(index: int) -> str:
    """One distinct, extractable fact per session: duplicates across sessions would be visible."""
    return f"I have a dog named Rex{index}."


def sessions_seed(*, users: int, sessions: int, prefix: str = "rel") -> list[int]:
    """`sessions` idle sessions (2 h quiet) spread over `users` users, one user turn + one answer each."""
    User = get_user_model()
    people = User.objects.bulk_create([User(username=f"{prefix}-u{i}") for i in range(users)])
    quiet = timezone.now() - timedelta(hours=2)
    rows = ChatSession.objects.bulk_create([
        ChatSession(user=people[i % users], external_id=f"{prefix}-s{i}", started_at=quiet, last_active_at=quiet)
        for i in range(sessions)
    ], batch_size=2000)
    Message.objects.bulk_create([
        message
        for i, session in enumerate(rows)
        for message in (
            Message(session=session, seq=1, role="user", content=fact_for(i), created_at=quiet),
            Message(session=session, seq=2, role="assistant", content="What a lovely name!", created_at=quiet),
        )
    ], batch_size=4000)
    return [session.pk for session in rows]


def worker_env(**overrides) -> dict[str, str]:
    """The environment of a worker process: this test database, local engines, no API keys."""
    db = connection.settings_dict
    url = f"postgresql://{quote(db['USER'] or 'postgres')}@/{quote(db['NAME'])}?host={quote(db['HOST'], safe='/')}"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("PYTEST")}
    env |= {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "memcenter.settings",
        "MEMCENTER_TESTING": "1",
        "LLM_BACKEND": "local",
        "EMBEDDING_BACKEND": "local",
        "EMBEDDING_DIM": str(settings.EMBEDDING_DIM),
        "DREAM_IDLE_SECONDS": str(settings.DREAM_IDLE_SECONDS),
        "LOG_LEVEL": "WARNING",
    }
    env |= {key: str(value) for key, value in overrides.items()}
    return env


def worker_start(phase: str, *args: str, name: str, start_at: float = 0, **env) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(WORKER), phase, *args],
        cwd=ROOT,
        env=worker_env(RELIABILITY_WORKER=name, RELIABILITY_START_AT=start_at, **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def workers_wait(processes: list[subprocess.Popen], *, timeout: float) -> list[dict]:
    """Wait for every worker; fail loudly with its stderr if one crashed or hung."""
    deadline = time.monotonic() + timeout
    reports = []
    for process in processes:
        try:
            out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            for p in processes:
                p.kill()
            raise AssertionError(f"worker {process.pid} still running after {timeout} s")
        assert process.returncode == 0, f"worker exited {process.returncode}:\n{out}\n{err[-3000:]}"
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def assert_light_exactly_once(*, session_ids: list[int], reports: list[dict]) -> dict:
    """Every session stamped once, by one run, with exactly its own candidate; returns measurements."""
    run_ids = [pk for report in reports for pk in report["runs"]]
    runs = DreamRun.objects.filter(pk__in=run_ids)
    totals = Counter()
    for run in runs:
        totals.update({"claimed": run.sessions_claimed, "done": run.sessions_done,
                       "skipped": run.sessions_skipped, "failed": run.sessions_failed,
                       "candidates": run.candidates_created})
        assert run.status == DreamRun.Status.OK, run.error
    n = len(session_ids)
    # Claims are the only way in, and they add up to exactly one per session: nobody processed one twice.
    assert totals["claimed"] == n, totals
    assert totals["done"] + totals["skipped"] == n and totals["failed"] == 0, totals
    sessions = ChatSession.objects.filter(pk__in=session_ids)
    assert sessions.filter(dreamed_at__isnull=True).count() == 0
    assert sessions.exclude(claimed_by="").count() == 0
    assert sessions.exclude(processed_seq=2).count() == 0
    candidates = Candidate.objects.filter(session_id__in=session_ids)
    assert candidates.count() == totals["candidates"] == n
    per_session = candidates.values("session_id").annotate(n=Count("id"), runs=Count("run_id", distinct=True))
    assert {row["n"] for row in per_session} == {1} and {row["runs"] for row in per_session} == {1}
    assert candidates.values("user_id", "statement").distinct().count() == n  # 0 duplicate candidates
    # Each candidate is the fact of its own session (nothing crossed over between workers).
    for session_id, quote_, external_id in candidates.values_list("session_id", "quote", "session__external_id"):
        assert quote_ == fact_for(int(external_id.rsplit("s", 1)[1])).rstrip("."), (session_id, quote_)
    workers = Counter(DreamRun.objects.get(pk=r).worker.split(":")[0] for r in candidates.values_list("run_id", flat=True).distinct())
    return {"sessions": n, "runs": len(run_ids), "workers_that_did_work": len(workers), **totals}


def assert_deep_never_double_wrote(*, user_ids: list[int]) -> dict:
    memories = Memory.objects.filter(user_id__in=user_ids)
    duplicates = memories.values("user_id", "statement").annotate(n=Count("id")).filter(n__gt=1)
    assert not duplicates.exists(), list(duplicates[:5])
    sources = MemorySource.objects.filter(memory__user_id__in=user_ids)
    assert not sources.values("memory_id", "message_id").annotate(n=Count("id")).filter(n__gt=1).exists()
    diaries = DiaryEntry.objects.filter(user_id__in=user_ids).values("user_id", "night").annotate(n=Count("id"))
    assert not diaries.filter(n__gt=1).exists(), list(diaries.filter(n__gt=1)[:5])
    promoted = Candidate.objects.filter(user_id__in=user_ids, status=Candidate.Status.PROMOTED)
    # A candidate becomes at most one memory and every promoted one has its memory.
    assert not promoted.filter(memory__isnull=True).exists()
    candidates = Candidate.objects.filter(user_id__in=user_ids)
    statuses = dict(Counter(candidates.values_list("status", flat=True)))
    return {"memories": memories.count(), "sources": sources.count(), "diary_entries": sum(d["n"] for d in diaries),
            "promoted": promoted.count(), "candidate_statuses": statuses,
            # Deep sleep looked at every candidate exactly once: decided, or scored and kept pending.
            "decided": candidates.exclude(status=Candidate.Status.PENDING, score__isnull=True).count()}
