"""3b. The memory center's list page for a user with 5,000 memories: latency and queries per page.

The user has 5,000 active memories (with embeddings, EN + ZH statements, a third in a persona scope),
two sources each (quotes from real stored messages), 1,000 superseded older versions, doubt/agree
feedback on some, and a rendered MEMORY.md. The Django test Client (logged in) GETs the page as a
browser would — default view, other sorts, deep pages, a search, a scope filter, the htmx list swap —
round-robin. Baseline: the same requests for a user with 50 memories built the same way.
"""
from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from bench.report import Figure, percentile
from bench.speed_context import memories_create
from chat.models import ChatSession, Message, Persona
from dreaming.memory.context import memory_md_render_all
from dreaming.models import Feedback, Memory, MemorySource
from dreaming.providers import get_embedder

REQUESTS = [
    ({}, {}),
    ({"sort": "recent"}, {}),
    ({"page": 50}, {}),
    ({"sort": "importance", "page": 120}, {}),
    ({"q": "Lisbon"}, {}),
    ({"scope": "profile"}, {}),
    ({"status": "all", "page": 3}, {}),
    ({"page": 2}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "memory-list"}),
]


def user_with_memories(*, username: str, count: int, embedder) -> object:
    user = get_user_model().objects.create(username=username)
    persona, _ = Persona.objects.get_or_create(slug="bench-luna", defaults={"name": "Luna"})
    memories = memories_create(user=user, count=count, embedder=embedder, seed=3)
    Memory.objects.filter(pk__in=[m.pk for m in memories[::3]]).update(persona=persona)
    now = timezone.now()
    session = ChatSession.objects.create(user=user, persona=persona, external_id=f"{username}-s", started_at=now, last_active_at=now)
    messages = Message.objects.bulk_create(
        [Message(session=session, seq=i + 1, role="user", content=f"Just so you know: {m.statement}", created_at=now)
         for i, m in enumerate(memories)], batch_size=1000,
    )
    MemorySource.objects.bulk_create(
        [MemorySource(memory=m, message=messages[(i + j) % len(messages)], quote=messages[(i + j) % len(messages)].content[16:],
                      said_at=now) for i, m in enumerate(memories) for j in range(2)], batch_size=2000,
    )
    Memory.objects.bulk_create(
        [Memory(user=user, statement=f"(earlier) {m.statement}", category=m.category, status=Memory.Status.SUPERSEDED,
                superseded_by=m, valid_from=now, valid_to=now, first_seen=now, last_seen=now) for m in memories[::5]],
        batch_size=1000,
    )
    Feedback.objects.bulk_create(
        [Feedback(user=user, memory=m, verdict="doubt" if i % 2 else "agree") for i, m in enumerate(memories[::7])]
    )
    memory_md_render_all(user=user)
    return user


def _measure(*, user, rounds: int) -> tuple[list[float], int]:
    client = Client()
    client.force_login(user)
    url = reverse("memcenter:memories")
    for params, headers in REQUESTS[:rounds]:  # warm templates and caches
        assert client.get(url, params, **headers).status_code == 200
    times, max_queries = [], 0
    for i in range(rounds):
        params, headers = REQUESTS[i % len(REQUESTS)]
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, params, **headers)
            times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"list page answered {response.status_code} for {params}")
        max_queries = max(max_queries, len(queries.captured_queries))
    return times, max_queries


def run(ctx) -> list[Figure]:
    embedder = get_embedder()
    rounds = ctx.pick(full=160, quick=40, smoke=4)
    many, few = ctx.pick(full=5000, quick=5000, smoke=30), ctx.pick(full=50, quick=50, smoke=10)
    ctx.log(f"building users with {many:,} and {few} memories")
    big = user_with_memories(username=f"bench-list-{many}", count=many, embedder=embedder)
    small = user_with_memories(username=f"bench-list-{few}", count=few, embedder=embedder)
    big_times, big_queries = _measure(user=big, rounds=rounds)
    small_times, small_queries = _measure(user=small, rounds=rounds)
    ms = lambda values, p: 1000 * percentile(values, p)  # noqa: E731
    ctx.details["listpage"] = {
        "requests": rounds, "variants": [p for p, _ in REQUESTS],
        "big_ms": {"p50": ms(big_times, 50), "p95": ms(big_times, 95)}, "big_max_queries": big_queries,
        "small_ms": {"p50": ms(small_times, 50), "p95": ms(small_times, 95)}, "small_max_queries": small_queries,
    }
    note = f"{rounds} GETs round-robin over {len(REQUESTS)} variants (sorts, deep pages, search, scope, htmx swap); baseline = a user with {few} memories"
    return [
        Figure("listpage", f"Memory list page p95 at {many:,} memories (vs {few})", ms(big_times, 95), ms(small_times, 95), "ms",
               "≤ 100 ms", ms(big_times, 95) <= 100, ratio=ms(big_times, 95) / ms(small_times, 95), note=note),
        Figure("listpage", f"Memory list page queries at {many:,} memories (max; vs {few})", big_queries, small_queries, "",
               "≤ 15", big_queries <= 15),
    ]
