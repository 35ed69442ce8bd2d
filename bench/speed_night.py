"""Nights that scale out (issue #22): deep sleep shared by 1 worker vs 4 workers, same run.

Every user has one pending, verified candidate (what light sleep leaves behind) and one active memory
close to it, so each user's night asks the model once (compare: does the candidate reinforce the
memory?); a night with nothing to compare makes no model call and would measure only CPU. The nightly
units are planned, then N worker processes (tests/stress/dream_worker.py units --remote) claim and run
them against the fake OpenAI server, which answers every call after LATENCY seconds (a
plausible model's wait; the server runs in a process of its own). Each worker runs
DREAM_MODEL_CONCURRENCY=CONCURRENCY users at once: 1, so that 4 workers' CPU (~0.15-0.2 s per user)
fits this machine's 2 cores — workers on separate hosts do not share cores, and with more lanes per
worker a 2-core bench measures the cores, not the scale-out (lanes have their own row: light sleep,
8 lanes against 1). Two disjoint sets of users, so both runs do the same work. Checked: every unit
done, one compare call per user, 0 users processed twice (one deep DreamRun per user), 0 missed.
"""
from __future__ import annotations

import multiprocessing
import signal
import time
from contextlib import contextmanager
from datetime import timedelta
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.test import override_settings
from django.utils import timezone

from bench.report import Figure
from chat.models import ChatSession, Message
from dreaming.models import Candidate, DreamRun, LLMCall, Memory, NightUnit
from dreaming.providers import get_embedder
from dreaming.pipeline.units import units_plan

LATENCY = 0.3
CONCURRENCY = 1


def _seed(prefix: str, users: int) -> list[int]:
    User = get_user_model()
    people = User.objects.bulk_create([User(username=f"{prefix}-{i}") for i in range(users)])
    said = timezone.now() - timedelta(hours=3)
    sessions = ChatSession.objects.bulk_create([
        ChatSession(user=u, external_id=f"{prefix}-s{i}", started_at=said, last_active_at=said, dreamed_at=said,
                    processed_seq=1) for i, u in enumerate(people)])
    messages = Message.objects.bulk_create([
        Message(session=s, seq=1, role="user", content=f"I have a dog named Rex{i}.", created_at=said)
        for i, s in enumerate(sessions)])
    Candidate.objects.bulk_create([
        Candidate(user=u, session=s, message=m, quote=f"I have a dog named Rex{i}", statement=f"User has a dog named Rex{i}",
                  category="fact", importance=0.8, user_initiated=True, said_at=said, status=Candidate.Status.PENDING,
                  verified=True)
        for i, (u, s, m) in enumerate(zip(people, sessions, messages))])
    earlier = said - timedelta(days=30)
    statements = [f"User has a dog named Rex{i}" for i in range(users)]
    vectors = get_embedder().embed(statements)
    Memory.objects.bulk_create([
        Memory(user=u, statement=text, category="fact", confidence=0.7, importance=0.8, valid_from=earlier,
               first_seen=earlier, last_seen=earlier, score=0.7, embedding=vector)
        for u, text, vector in zip(people, statements, vectors)], batch_size=1000)
    return [u.pk for u in people]


def _serve_slow_model(conn) -> None:
    """The fake model's process: the OpenAI wire format, every answer after LATENCY seconds."""
    from bench.fake_llm import _responder
    from tests.support.fake_openai import FakeOpenAI

    fake = FakeOpenAI().start()

    def answer(recorded):
        time.sleep(LATENCY)
        return _responder(recorded)  # the rules engine's answers, as a model would give them

    fake.set_chat_responder(answer)
    conn.send(fake.url)
    signal.pause()


@contextmanager
def _slow_model():
    """The fake model in a process of its own (forked; it never touches the database): its answers
    are computed by the rules engine, which must not take the GIL of the light-sleep lanes measured
    in this process — a real model's compute is not the worker's."""
    forked = multiprocessing.get_context("fork")
    ours, theirs = forked.Pipe()
    server = forked.Process(target=_serve_slow_model, args=(theirs,), daemon=True)
    server.start()
    try:
        if not ours.poll(60):
            raise RuntimeError("the fake model server did not start within 60 s")
        yield SimpleNamespace(url=ours.recv())
    finally:
        server.terminate()
        server.join(10)


def _night(ctx, *, fake, prefix: str, users: int, workers: int) -> dict:
    from tests.stress.workload import worker_start, workers_wait

    ids = _seed(prefix, users)
    with override_settings(DREAM_IDLE_SECONDS=0):
        planned = units_plan(phase="deep")
    env = {"LLM_BACKEND": "openai", "LLM_BASE_URL": fake.url, "LLM_API_KEY": "sk-bench-fake", "LLM_MAX_RETRIES": "0",
           "DREAM_MODEL_CONCURRENCY": str(CONCURRENCY)}
    started = time.perf_counter()
    processes = [worker_start("units", "--remote", name=f"{prefix}-w{n}", **env) for n in range(workers)]
    workers_wait(processes, timeout=3600)
    seconds = time.perf_counter() - started
    calls = LLMCall.objects.filter(run__phase="deep", run__user_id__in=ids, task="compare").count()
    runs = DreamRun.objects.filter(phase="deep", user_id__in=ids).values("user_id").annotate(n=Count("id"))
    twice = sum(1 for row in runs if row["n"] > 1)
    done = NightUnit.objects.filter(user_id__in=ids, status=NightUnit.Status.DONE).count()
    ctx.log(f"{workers} worker(s): {users} users in {seconds:.1f} s ({done} done, {twice} twice, {calls} compare calls)")
    return {"users": users, "planned": planned, "compare_calls": calls, "workers": workers, "seconds": round(seconds, 2), "done": done,
            "processed_twice": twice, "missed": users - done, "users_per_second": round(users / seconds, 2)}


def _light(ctx, *, fake, prefix: str, sessions: int, concurrency: int) -> dict:
    """Light sleep of `sessions` idle sessions in one worker with `concurrency` lanes (in this process)."""
    from dreaming.pipeline.lanes import light_sleep_lanes

    User = get_user_model()
    user = User.objects.create(username=f"{prefix}-user")
    quiet = timezone.now() - timedelta(hours=2)
    rows = ChatSession.objects.bulk_create([
        ChatSession(user=user, external_id=f"{prefix}-{i}", started_at=quiet, last_active_at=quiet) for i in range(sessions)])
    Message.objects.bulk_create([m for i, row in enumerate(rows) for m in (
        Message(session=row, seq=1, role="user", content=f"I have a cat named Tom{i} and I live in Porto.", created_at=quiet),
        Message(session=row, seq=2, role="assistant", content="Lovely!", created_at=quiet))])
    with override_settings(LLM_BACKEND="openai", LLM_BASE_URL=fake.url, LLM_API_KEY="sk-bench-fake", LLM_MAX_RETRIES=0,
                           LLM_FALLBACK_MODEL="", DREAM_MODEL_CONCURRENCY=concurrency):
        started = time.perf_counter()
        runs = light_sleep_lanes(worker=f"{prefix}-w", session_ids=[r.pk for r in rows])
        seconds = time.perf_counter() - started
    kept = ChatSession.objects.filter(pk__in=[r.pk for r in rows], skipped=False, dreamed_at__isnull=False).count()
    extracts = LLMCall.objects.filter(run__in=runs, task="extract").count()
    ctx.log(f"light, {concurrency} lane(s): {sessions} sessions in {seconds:.1f} s, {extracts} extract calls for {kept} kept")
    return {"sessions": sessions, "concurrency": concurrency, "seconds": round(seconds, 2),
            "sessions_per_second": round(sessions / seconds, 2), "kept": kept, "extract_calls": extracts}


def run(ctx) -> list[Figure]:
    users = ctx.pick(full=2000, quick=160, smoke=8)
    sessions = ctx.pick(full=400, quick=96, smoke=8)
    with _slow_model() as fake:
        light_one = _light(ctx, fake=fake, prefix="lanes1", sessions=sessions, concurrency=1)
        light_eight = _light(ctx, fake=fake, prefix="lanes8", sessions=sessions, concurrency=8)
        one = _night(ctx, fake=fake, prefix="night1", users=users, workers=1)
        four = _night(ctx, fake=fake, prefix="night4", users=users, workers=4)
    ctx.details["night"] = {"latency_seconds": LATENCY, "concurrency": CONCURRENCY, "one": one, "four": four}
    ratio = four["seconds"] / one["seconds"]
    clean = not (one["processed_twice"] or four["processed_twice"] or one["missed"] or four["missed"]) and (
        one["compare_calls"] == four["compare_calls"] == users)
    note = (f"{users} users with a pending candidate, fake model answering in {LATENCY * 1000:.0f} ms, "
            f"DREAM_MODEL_CONCURRENCY={CONCURRENCY} per worker; processed twice {one['processed_twice']}/{four['processed_twice']}, "
            f"missed {one['missed']}/{four['missed']}, compare calls {one['compare_calls']}/{four['compare_calls']} (1 worker / 4 workers)")
    ctx.details["night"]["light"] = {"one": light_one, "eight": light_eight}
    speedup = light_eight["sessions_per_second"] / light_one["sessions_per_second"]
    once = light_eight["extract_calls"] == light_eight["kept"] and light_one["extract_calls"] == light_one["kept"]
    return [
        Figure(bench="night", name="light sleep sessions/s, DREAM_MODEL_CONCURRENCY 8 vs 1", ours=light_eight["sessions_per_second"],
               baseline=light_one["sessions_per_second"], unit="sessions/s", target="≥ 6× and 1 extract per kept session",
               ratio=round(speedup, 2), passed=speedup >= 6 and once,
               note=f"{sessions} sessions, one worker, fake model answering in {LATENCY * 1000:.0f} ms; extract calls "
                    f"{light_eight['extract_calls']} for {light_eight['kept']} kept sessions (8 lanes)"),
        Figure(bench="night", name="deep sleep, 4 workers vs 1 worker (time)", ours=four["seconds"],
               baseline=one["seconds"], unit="s", target="≤ 0.3× and 0 twice, 0 missed", ratio=round(ratio, 3),
               passed=ratio <= 0.3 and clean, note=note),
        Figure(bench="night", name="deep sleep users per second, 4 workers", ours=four["users_per_second"],
               baseline=one["users_per_second"], unit="users/s", note="1 worker is the baseline"),
    ]
