"""4b. API append rate on a real server process under a bounded load from a second process.

The server: `manage.py serve --prod` on 127.0.0.1:<random port> — gunicorn (WEB_WORKERS sync workers,
whitenoise, the production middleware) plus one django-q2 cluster running the dreaming schedules
meanwhile; DEBUG off, the bench database via DATABASE_URL, the per-key rate limit raised so it measures
throughput, not the limiter.
The load: `python -m bench.loadgen` in another process — a fixed number of requests at a fixed
concurrency over loopback. Each append request carries a user + assistant message (so 2 messages per
request) to one of 20 sessions, authenticated with an API key created for the run. Baseline: the same
load on `GET /healthz?only=database` (one `SELECT 1`), the server's floor for a request that touches
the database. Afterwards the stored messages are counted: none may be missing.

A dream cycle runs on the server's cluster meanwhile: before the server starts, DREAM_USERS users get
one conversation light-slept here (so they have candidates waiting for deep sleep) and one idle
conversation left for the cluster; the light and deep schedules are set to fire at once. The row
waits for the cluster to dream every idle conversation and to finish every user's deep-sleep unit,
and says whether that work overlapped the load.
"""
from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from django.db import connection

from bench.report import Figure
from datetime import timedelta

from django.utils import timezone
from django_q.models import Schedule

from chat.models import ChatSession, Message
from chat.services import NewMessage, api_key_create, session_create, session_import, user_resolve
from dreaming.models import NightUnit, Phase
from dreaming.pipeline import schedules
from dreaming.pipeline.light import light_sleep_sweep

ROOT = Path(__file__).resolve().parent.parent
CONCURRENCY = 8
WEB_WORKERS = 2
DREAM_USERS = 20
DREAM_WAIT_SECONDS = 300
_FACTS = ("I have a dog named {name}.", "I work as a nurse in {city}.", "I love hiking on weekends.",
          "My sister {name} lives in {city}.", "I'm learning to play the piano.")
_NAMES = ("Rex", "Mochi", "Ana", "Biscuit", "Kai")
_CITIES = ("Lyon", "Osaka", "Denver", "Porto", "Leeds")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    d = connection.settings_dict
    auth = quote(d["USER"] or "") + (":" + quote(d["PASSWORD"]) if d["PASSWORD"] else "")
    host = d["HOST"] or ""
    if host.startswith("/"):
        return f"postgresql://{auth}@/{quote(d['NAME'])}?host={quote(host)}"
    return f"postgresql://{auth}@{host}:{d['PORT'] or 5432}/{quote(d['NAME'])}"


def _server_start(port: int, *, log: Path) -> subprocess.Popen:
    env = {
        **os.environ, "DATABASE_URL": _database_url(), "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "API_RATE_LIMIT_PER_MINUTE": "100000000", "LOG_LEVEL": "WARNING",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback; production sits behind a TLS proxy
        "STATIC_ROOT": str(ROOT / "bench" / ".cache" / "static"), "Q_WORKERS": "1",
    }
    for name in ("MEMCENTER_TEST_DB", "MEMCENTER_TESTING", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--prod", "--addr", f"127.0.0.1:{port}", "--workers", str(WEB_WORKERS),
         "--clusters", "1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"), start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("serve --prod exited: " + log.read_text(errors="replace")[-500:])
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz?only=database", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise RuntimeError("serve --prod did not answer within 60 s")


def _load(*, port: int, kind: str, requests: int, sessions: list[int], secret: str, tag: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "bench.loadgen", "--base", f"http://127.0.0.1:{port}", "--kind", kind,
         "--requests", str(requests), "--concurrency", str(CONCURRENCY), "--sessions", ",".join(map(str, sessions)),
         "--tag", tag],
        cwd=ROOT, env={**os.environ, "BENCH_API_KEY": secret}, capture_output=True, text=True, timeout=1800, check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def _dream_work_prepare(client) -> list[int]:
    """DREAM_USERS users with candidates waiting for deep sleep and one idle conversation each for light."""
    said = timezone.now() - timedelta(hours=3)
    waiting, idle = [], []
    for i in range(DREAM_USERS):
        user = user_resolve(username=f"bench-api-dreamer-{i}", create=True, client=client)
        for part in ("a", "b"):
            turns = [
                NewMessage("user", _FACTS[(i + j) % len(_FACTS)].format(name=_NAMES[(i + j) % 5], city=_CITIES[(i + 2 * j) % 5]),
                           said + timedelta(minutes=2 * j))
                for j in range(3 if part == "a" else 2)
            ]
            result = session_import(user=user, messages=turns, external_id=f"bench-api-dream-{i}-{part}", started_at=said)
            (waiting if part == "a" else idle).append(result.session.pk)
    light_sleep_sweep(session_ids=waiting, worker="bench-api-prepare")
    schedules.schedules_ensure(schedule_model=Schedule)
    Schedule.objects.filter(name__in=(schedules.LIGHT, schedules.DEEP)).update(next_run=timezone.now())
    return idle


def _dream_work_wait(*, idle: list[int], users: list[int]) -> dict:
    deadline = time.monotonic() + DREAM_WAIT_SECONDS
    while True:
        dreamed = ChatSession.objects.filter(pk__in=idle, dreamed_at__isnull=False).count()
        units = NightUnit.objects.filter(phase=Phase.DEEP, user_id__in=users)
        done = units.filter(status=NightUnit.Status.DONE).count()
        if (dreamed == len(idle) and done == len(users)) or time.monotonic() > deadline:
            break
        time.sleep(1)
    stamps = list(ChatSession.objects.filter(pk__in=idle).values_list("dreamed_at", flat=True)) + list(
        units.values_list("finished_at", flat=True)
    )
    stamps = [t for t in stamps if t is not None]
    return {"light_dreamed": dreamed, "light_idle": len(idle), "deep_units_done": done, "deep_users": len(users),
            "deep_units_failed": units.filter(status=NightUnit.Status.FAILED).count(),
            "first_done": min(stamps) if stamps else None, "last_done": max(stamps) if stamps else None}


def run(ctx) -> list[Figure]:
    requests = ctx.pick(full=2000, quick=300, smoke=20)
    key, secret = api_key_create(name="bench-api")
    user = user_resolve(username="bench-api", create=True, client=key.client)  # the key reaches only its client's users
    sessions = [session_create(user=user, external_id=f"bench-api-{i}")[0].pk for i in range(20)]
    idle = _dream_work_prepare(key.client)
    dreamers = list(ChatSession.objects.filter(pk__in=idle).values_list("user_id", flat=True))
    port = _free_port()
    ctx.log(f"serve --prod (gunicorn ×{WEB_WORKERS} + 1 cluster) on 127.0.0.1:{port}; {requests} requests at concurrency {CONCURRENCY}")
    log = ctx.workdir / "serve.log"
    server = _server_start(port, log=log)
    try:
        _load(port=port, kind="append", requests=50, sessions=sessions, secret=secret, tag="warm")
        _load(port=port, kind="health", requests=50, sessions=sessions, secret=secret, tag="warm")
        load_started = timezone.now()
        append = _load(port=port, kind="append", requests=requests, sessions=sessions, secret=secret, tag="run")
        health = _load(port=port, kind="health", requests=requests, sessions=sessions, secret=secret, tag="run")
        load_ended = timezone.now()
        dream = _dream_work_wait(idle=idle, users=dreamers)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    stored = Message.objects.filter(session_id__in=sessions, external_id__startswith="run-").count()
    errors = [line for line in log.read_text(errors="replace").splitlines()
              if line and not line.startswith((" ", "Traceback", "[", "Performing", "System check", "Django version",
                                                 "Starting", "Quit", "Watching", "November", "December"))]
    first_error = next((line for line in errors if "Error" in line or "Exception" in line), "")
    overlapped = dream["first_done"] is not None and dream["first_done"] <= load_ended
    ctx.details["api"] = {"append": append, "health": health, "stored_messages": stored, "first_server_error": first_error,
                          "dream": {**{k: str(v) for k, v in dream.items()}, "load_started": str(load_started),
                                    "load_ended": str(load_ended), "overlapped_the_load": overlapped}}
    dream_share = (dream["light_dreamed"] + dream["deep_units_done"]) / (dream["light_idle"] + dream["deep_users"])
    rate, floor = append["requests_per_second"], health["requests_per_second"]
    note = (f"{requests} requests, concurrency {CONCURRENCY}, 2 messages each ({2 * rate:.0f} messages/s); "
            f"append p50 {append['p50_ms']:.0f} ms / p95 {append['p95_ms']:.0f} ms; baseline = GET /healthz?only=database "
            f"under the same load; server = serve --prod (gunicorn, {WEB_WORKERS} sync workers, + 1 django-q2 cluster)")
    return [
        Figure("api", "API append rate (vs health-check floor)", rate, floor, "requests/s", ratio=rate / floor, note=note),
        Figure("api", "API appends answered 2xx and stored", stored / (2 * requests), None, "", "= 1.0",
               append["errors"] == 0 and stored == 2 * requests,
               note=f"{append['ok']}/{requests} answered 2xx; {stored}/{2 * requests} messages stored; statuses {append['statuses']}"
                    + (f"; first server error: {first_error[:300]}" if append["errors"] else "")),
        Figure("api", "Dream cycle on the same cluster during the load (work finished)", dream_share, None, "", "= 1.0",
               dream_share == 1.0 and dream["deep_units_failed"] == 0 and overlapped,
               note=f"light sleep dreamed {dream['light_dreamed']}/{dream['light_idle']} idle conversations, deep sleep "
                    f"finished {dream['deep_units_done']}/{dream['deep_users']} users' units ({dream['deep_units_failed']} failed); "
                    f"first finished {_offset(dream['first_done'], load_started)}, last {_offset(dream['last_done'], load_started)} "
                    f"after the load began (load lasted {(load_ended - load_started).total_seconds():.1f} s)"),
    ]


def _offset(moment, start) -> str:
    return "never" if moment is None else f"{(moment - start).total_seconds():+.1f} s"
