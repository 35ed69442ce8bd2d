"""1. Chat-path context fetch (cached MEMORY.md) vs per-turn RAG, for a user with 2,000 memories.

Chat path, per turn: `memory_md_get(user=...)` (what the chat page and the memory.md API call) and
the system prompt built from it, as the product runs it: the per-process cache on and its
LISTEN/NOTIFY listener live. The same fetch with the cache off (one indexed query) is measured
too, as a separate figure. Per-turn RAG, the usual design this project avoids: embed the message
with the configured embedder, pgvector top-10 over the user's memories, render those lines into
the prompt. All three run on the same messages, interleaved, in the same process. Queries are
counted with a connection execute wrapper (cheap, so it does not tilt the timings); embedding
calls by wrapping the configured embedder's class.

While the turns run, a simulated worker re-renders the user's MEMORY.md from another connection
every few hundred turns, so the hit rate includes real invalidations. Afterwards the staleness
window is measured: the time from such a commit until `memory_md_get` returns the new version.
"""
from __future__ import annotations

import functools
import time
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from pgvector.django import CosineDistance

from bench.report import Figure, percentile
from bench.synth import memory_statements, user_turns
from dreaming.memory.context import memory_md_get, memory_md_render_all
from dreaming.memory.context_cache import memory_md_cache, memory_md_cache_stop, memory_md_cache_wait_live
from dreaming.models import Memory
from dreaming.providers import get_embedder

MEMORIES = 2000


class EmbedCounter:
    """Counts embed() calls on every instance of one embedder class while watching."""

    def __init__(self) -> None:
        self.calls = 0

    @contextmanager
    def watching(self, cls):
        original = cls.embed

        @functools.wraps(original)  # keeps the signature (light sleep inspects it for `ctx`)
        def counted(instance, *args, **kwargs):
            self.calls += 1
            return original(instance, *args, **kwargs)

        cls.embed = counted
        try:
            yield self
        finally:
            cls.embed = original


class QueryCounter:
    """Counts statements on Django's connection (an execute wrapper: no SQL capture, no debug cursor)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, execute, sql, params, many, context):
        self.calls += 1
        return execute(sql, params, many, context)


def memories_create(*, user, count: int, embedder, seed: int = 11, persona=None) -> list[Memory]:
    """`count` active memories with embeddings from the configured embedder, then MEMORY.md rendered."""
    now = timezone.now()
    pairs = memory_statements(count=count, seed=seed)
    rows = []
    for start in range(0, len(pairs), 256):
        chunk = pairs[start : start + 256]
        vectors = embedder.embed([s for _, s in chunk], kind="document")
        for i, ((category, statement), vector) in enumerate(zip(chunk, vectors)):
            seen = now - timezone.timedelta(days=(start + i) % 400)
            rows.append(Memory(
                user=user, persona=persona, statement=statement, category=category,
                confidence=0.4 + 0.6 * ((start + i) % 7) / 7, importance=0.2 + 0.8 * ((start + i) % 11) / 11,
                valid_from=seen, first_seen=seen, last_seen=seen, embedding=vector,
            ))
    created = Memory.objects.bulk_create(rows, batch_size=500)
    memory_md_render_all(user=user)
    return created


def _chat_turn(*, user, message: str) -> str:
    document = memory_md_get(user=user)
    return f"{document.content if document else ''}\n\nUser: {message}"


def _rag_turn(*, user, message: str, embedder) -> str:
    vector = embedder.embed([message], kind="query")[0]
    top = (
        Memory.objects.filter(user=user, status=Memory.Status.ACTIVE)
        .order_by(CosineDistance("embedding", vector))
        .values_list("statement", flat=True)[:10]
    )
    context = "# Relevant memories\n" + "\n".join(f"- {statement}" for statement in top)
    return f"{context}\n\nUser: {message}"


def _other_connection() -> psycopg.Connection:
    """An autocommit connection of its own: a dreaming worker in another process, as far as the cache knows."""
    params = connection.get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    return psycopg.connect(**params, autocommit=True)


def _rerender_elsewhere(other: psycopg.Connection, *, user) -> int:
    """What a worker's memory_md_render does to the row (new version), committed on another connection."""
    row = other.execute(
        "UPDATE dreaming_memorydocument SET version = version + 1, rendered_at = now() "
        "WHERE user_id = %s AND persona_id IS NULL RETURNING version",
        [user.pk],
    ).fetchone()
    return row[0]


def _staleness(*, user, rounds: int) -> list[float]:
    """Seconds from a commit elsewhere until memory_md_get returns the new version (polled every 0.1 ms)."""
    windows = []
    with _other_connection() as other:
        for _ in range(rounds):
            memory_md_get(user=user)
            memory_md_get(user=user)  # cached again
            version = _rerender_elsewhere(other, user=user)
            committed = time.perf_counter()
            while memory_md_get(user=user).version != version:
                time.sleep(0.0001)  # let the listener thread have the GIL
            windows.append(time.perf_counter() - committed)
    return windows


def _timed(turn, counter: QueryCounter, embeds: EmbedCounter, embedder_cls) -> tuple[float, int, int]:
    counter.calls = embeds.calls = 0
    with embeds.watching(embedder_cls):
        started = time.perf_counter()
        turn()
        elapsed = time.perf_counter() - started
    return elapsed, counter.calls, embeds.calls


def run(ctx) -> list[Figure]:
    cache_setting = settings.MEMORY_MD_CACHE
    try:
        return _run(ctx)
    finally:
        settings.MEMORY_MD_CACHE = cache_setting
        memory_md_cache_stop()  # close the listener's connection: the bench database is dropped next


def _run(ctx) -> list[Figure]:
    turns = ctx.pick(full=2000, quick=300, smoke=10)
    memories = ctx.pick(full=MEMORIES, quick=MEMORIES, smoke=50)
    rerender_every = ctx.pick(full=500, quick=100, smoke=5)
    embedder = get_embedder()
    user = get_user_model().objects.create(username="bench-context")
    memories_create(user=user, count=memories, embedder=embedder)
    messages = user_turns(count=turns)
    # Inside a transaction (the test suite's smoke run) the cache is bypassed by design, and other
    # connections cannot see this user: the "cached" path then is the one-query path.
    cache_usable = not connection.in_atomic_block
    settings.MEMORY_MD_CACHE = cache_usable
    cache_live = cache_usable and memory_md_cache_wait_live(timeout=10)

    counter, embeds, embedder_cls = QueryCounter(), EmbedCounter(), type(embedder)
    paths = {
        "cached": lambda message: _chat_turn(user=user, message=message),
        "uncached": lambda message: _chat_turn(user=user, message=message),
        "rag": lambda message: _rag_turn(user=user, message=message, embedder=embedder),
    }
    times = {name: [] for name in paths}
    queries = dict.fromkeys(paths, 0)
    embedded = dict.fromkeys(paths, 0)
    rerenders = 0
    with connection.execute_wrapper(counter), (_other_connection() if cache_live else _nothing()) as other:
        for message in messages[: ctx.pick(full=30, quick=30, smoke=3)]:  # warm caches and connections on every path
            for name, turn in paths.items():
                settings.MEMORY_MD_CACHE = cache_usable and name == "cached"
                turn(message)
        stats = memory_md_cache().stats if cache_live else None
        hits_before, misses_before = (stats.hits, stats.misses) if stats else (0, 0)
        for i, message in enumerate(messages):
            if other is not None and i and i % rerender_every == 0:
                _rerender_elsewhere(other, user=user)
                rerenders += 1
            for name, turn in paths.items():
                settings.MEMORY_MD_CACHE = cache_usable and name == "cached"
                elapsed, n_queries, n_embeds = _timed(lambda: turn(message), counter, embeds, embedder_cls)
                times[name].append(elapsed)
                queries[name] += n_queries
                embedded[name] += n_embeds
        hits, misses = (stats.hits - hits_before, stats.misses - misses_before) if stats else (0, turns)
    settings.MEMORY_MD_CACHE = cache_usable
    staleness = _staleness(user=user, rounds=ctx.pick(full=50, quick=20, smoke=0)) if cache_live else []

    # The same baseline with a remote embedder (the OpenAI client against the in-process fake server on
    # loopback): what per-turn RAG costs once embeddings come from an API, minus the internet.
    from bench.fake_llm import fake_openai_embedder

    remote_times = []
    with fake_openai_embedder() as remote:
        for message in messages[: ctx.pick(full=10, quick=10, smoke=2)]:
            _rag_turn(user=user, message=message, embedder=remote)
        for message in messages[: ctx.pick(full=300, quick=100, smoke=5)]:
            started = time.perf_counter()
            _rag_turn(user=user, message=message, embedder=remote)
            remote_times.append(time.perf_counter() - started)

    ms = lambda values, p: 1000 * percentile(values, p)  # noqa: E731
    p50 = {name: ms(values, 50) for name, values in times.items()}
    p99 = {name: ms(values, 99) for name, values in times.items()}
    remote_p50 = ms(remote_times, 50)
    per_turn = {name: queries[name] / turns for name in paths}
    hit_rate = hits / (hits + misses) if hits + misses else 0.0
    chat = "cached" if cache_live else "uncached"
    ctx.details["context"] = {
        "memories": memories, "turns": turns, "embedder": getattr(embedder, "name", type(embedder).__name__),
        "cache_live": cache_live, "cache_hits": hits, "cache_misses": misses, "cache_hit_rate": hit_rate,
        "rerenders_elsewhere_during_turns": rerenders,
        "chat_ms": {"p50": p50[chat], "p99": p99[chat]},
        "uncached_ms": {"p50": p50["uncached"], "p99": p99["uncached"]},
        "rag_ms": {"p50": p50["rag"], "p99": p99["rag"]},
        "chat_queries_per_turn": per_turn[chat], "uncached_queries_per_turn": per_turn["uncached"],
        "rag_queries_per_turn": per_turn["rag"],
        "chat_embeddings_per_turn": embedded[chat] / turns, "rag_embeddings_per_turn": embedded["rag"] / turns,
        "rag_remote_embedder_ms": {"p50": remote_p50, "p99": ms(remote_times, 99)},
        "staleness_ms": {"p50": ms(staleness, 50), "max": 1000 * max(staleness), "rounds": len(staleness)} if staleness else None,
    }
    how = (
        f"cache on, listener live, {hits / turns:.1%} of turns served from memory; the user's MEMORY.md was re-rendered "
        f"by another connection {rerenders}× during the run" if cache_live
        else "cache bypassed (inside a transaction): the chat path is the one-query fetch"
    )
    note = (f"{turns} turns, user with {memories} memories; {how}; baseline = embed the message "
            f"({ctx.details['context']['embedder']} embedder) + pgvector top-10 + render; measured interleaved in one process")
    ratio, uncached_ratio = p50["rag"] / p50[chat], p50["rag"] / p50["uncached"]
    figures = [
        Figure("context", "Chat context fetch speed-up vs per-turn RAG, configured embedder (p50)", ratio, None, "×", "≥ 50×", ratio >= 50, note=note),
        Figure("context", "Uncached context fetch (one indexed query) speed-up vs per-turn RAG (p50)", uncached_ratio, None, "×",
               note="MEMORY_MD_CACHE off: what every turn costs while the listener is disconnected, and inside a transaction"),
        Figure("context", "Speed-up vs per-turn RAG with a remote embedder (fake OpenAI on loopback; p50)",
               remote_p50 / p50[chat], None, "×", "≥ 50×", remote_p50 / p50[chat] >= 50,
               note=f"RAG p50 {remote_p50:.1f} ms with the OpenAI embedder client against the in-process fake server "
                    f"({len(remote_times)} turns); a real API adds its network round trip on top"),
        Figure("context", "Chat context fetch p50 (vs RAG p50)", p50[chat], p50["rag"], "ms", ratio=ratio),
        Figure("context", "Chat context fetch p99 (vs RAG p99)", p99[chat], p99["rag"], "ms", ratio=p99["rag"] / p99[chat]),
        Figure("context", "Uncached context fetch p50 (vs RAG p50)", p50["uncached"], p50["rag"], "ms", ratio=uncached_ratio),
        Figure("context", "Queries per chat turn (vs RAG)", per_turn[chat], per_turn["rag"], "", "≤ 2", per_turn[chat] <= 2),
        Figure("context", "Embedding calls per chat turn (vs RAG)", embedded[chat] / turns, embedded["rag"] / turns, "", "0", embedded[chat] == 0),
    ]
    if cache_live:
        figures.append(Figure("context", "MEMORY.md cache hit rate on chat turns", 100 * hit_rate, None, "%",
                              note=f"{hits} hits, {misses} misses; a miss follows each re-render elsewhere"))
    if staleness:
        figures.append(Figure("context", "Staleness after a commit elsewhere (NOTIFY to fresh read; p50)", ms(staleness, 50), None, "ms",
                              note=f"max {1000 * max(staleness):.2f} ms over {len(staleness)} re-renders by another connection; "
                                   "polled every 0.1 ms; a write in the same process is seen at once (on-commit eviction)"))
    return figures


@contextmanager
def _nothing():
    yield None
