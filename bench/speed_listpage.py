"""3b. The memory center's list page for a user with 5,000 memories: latency and queries per page.

The user has 5,000 active memories (with embeddings, EN + ZH statements, a third in a persona scope),
two sources each (quotes from real stored messages), 1,000 superseded older versions, doubt/agree
feedback on some, and a rendered MEMORY.md. The Django test Client (logged in) GETs the page as a
browser would — default view, other sorts, deep pages, a search, a scope filter, the htmx list swap —
round-robin. Floor: the same requests, in the same run, of the same page with the 25 statements as plain
list items (bench/listpage_floor.py); also the page for a user with 50 memories built the same way.
"""
from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.core.cache import caches
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import clear_url_caches, reverse
from django.utils import timezone

from bench.report import Figure, percentile
from bench.speed_context import memories_create
from chat.models import ChatSession, Message, Persona
from dreaming.memory.context import memory_md_render_all
from dreaming.models import Feedback, Memory, MemorySource
from dreaming.providers import get_embedder
from memcenter.cards import CACHE_ALIAS as CARDS_CACHE

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


def _get(client, url, params, headers) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.get(url, params, **headers)
        elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code} for {params}")
    return elapsed, len(queries.captured_queries)


def _measure(*, user, rounds: int) -> dict:
    """The list page and its plain-list floor, request by request in turn (so load changes hit both alike).

    Cards are cached by what they show (memcenter/cards.py): the warm-up fills the cache as a person's
    first look would, the measured rounds are repeat views; `cold` is the page with the card cache
    emptied before each request (every card rendered).
    """
    client = Client()
    client.force_login(user)
    page_url, floor_url = reverse("memcenter:memories"), reverse("bench-plain-list")
    for params, headers in REQUESTS:  # warm templates and caches
        _get(client, page_url, params, headers), _get(client, floor_url, params, headers)
    page, floor, cold, max_queries = [], [], [], 0
    for i in range(rounds):
        params, headers = REQUESTS[i % len(REQUESTS)]
        elapsed, n_queries = _get(client, page_url, params, headers)
        page.append(elapsed)
        max_queries = max(max_queries, n_queries)
        floor.append(_get(client, floor_url, params, headers)[0])
    for i in range(0, rounds, 4):  # after the warm rounds: emptying the cache would slow the next ones
        params, headers = REQUESTS[i % len(REQUESTS)]
        caches[CARDS_CACHE].clear()
        cold.append(_get(client, page_url, params, headers)[0])
    return {"page": page, "floor": floor, "cold": cold, "max_queries": max_queries}


def run(ctx) -> list[Figure]:
    embedder = get_embedder()
    rounds = ctx.pick(full=160, quick=40, smoke=4)
    many, few = ctx.pick(full=5000, quick=5000, smoke=30), ctx.pick(full=50, quick=50, smoke=10)
    ctx.log(f"building users with {many:,} and {few} memories")
    big = user_with_memories(username=f"bench-list-{many}", count=many, embedder=embedder)
    small = user_with_memories(username=f"bench-list-{few}", count=few, embedder=embedder)
    with override_settings(ROOT_URLCONF="bench.listpage_floor"):
        clear_url_caches()
        try:
            on_big, on_small = _measure(user=big, rounds=rounds), _measure(user=small, rounds=rounds)
        finally:
            clear_url_caches()
    ms = lambda values, p: 1000 * percentile(values, p)  # noqa: E731
    ctx.details["listpage"] = {
        "requests": rounds, "variants": [p for p, _ in REQUESTS],
        **{f"{name}_{size}_ms": {"p50": ms(run[name], 50), "p95": ms(run[name], 95)}
           for size, run in (("big", on_big), ("small", on_small)) for name in ("page", "floor", "cold")},
        "big_max_queries": on_big["max_queries"], "small_max_queries": on_small["max_queries"],
    }
    page95, floor95 = ms(on_big["page"], 95), ms(on_big["floor"], 95)
    note = (f"{rounds} GETs round-robin over {len(REQUESTS)} variants (sorts, deep pages, search, scope, htmx swap), "
            "each followed by the same GET of the floor: the same page with its 25 statements as plain <li> "
            "(bench/listpage_floor.py)")
    return [
        Figure("listpage", f"Memory list page p95 at {many:,} memories (vs plain-list floor)", page95, floor95, "ms",
               "≤ 1.5× floor", page95 <= 1.5 * floor95, ratio=page95 / floor95, note=note),
        Figure("listpage", f"Memory list page p95, every card rendered (card cache emptied; vs floor)",
               ms(on_big["cold"], 95), floor95, "ms", ratio=ms(on_big["cold"], 95) / floor95,
               note=f"{(rounds + 3) // 4} GETs after the measured ones, the card cache emptied before each: a first look at a page"),
        Figure("listpage", f"Memory list page p95 at {many:,} memories vs {few}", page95, ms(on_small["page"], 95), "ms",
               "≤ 100 ms", page95 <= 100, ratio=page95 / ms(on_small["page"], 95)),
        Figure("listpage", f"Memory list page queries at {many:,} memories (max; vs {few})", on_big["max_queries"],
               on_small["max_queries"], "", "≤ 15", on_big["max_queries"] <= 15),
    ]
