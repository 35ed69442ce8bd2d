"""1. Chat-path context fetch (cached MEMORY.md) vs per-turn RAG, for a user with 2,000 memories.

Chat path, per turn: `memory_md_get(user=...)` (what the chat page and the memory.md API call) and
the system prompt built from it. Per-turn RAG, per turn, the usual design this project avoids: embed
the message with the configured embedder, pgvector top-10 over the user's memories, render those
lines into the prompt. Both run on the same messages, interleaved, in the same process. Queries are
counted with CaptureQueriesContext; embedding calls by wrapping the configured embedder's class.
"""
from __future__ import annotations

import functools
import time
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pgvector.django import CosineDistance

from bench.report import Figure, percentile
from bench.synth import memory_statements, user_turns
from dreaming.context import memory_md_get, memory_md_render_all
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


def run(ctx) -> list[Figure]:
    turns = ctx.pick(full=2000, quick=300, smoke=10)
    memories = ctx.pick(full=MEMORIES, quick=MEMORIES, smoke=50)
    embedder = get_embedder()
    user = get_user_model().objects.create(username="bench-context")
    memories_create(user=user, count=memories, embedder=embedder)
    messages = user_turns(count=turns)
    counter = EmbedCounter()
    for message in messages[: ctx.pick(full=30, quick=30, smoke=3)]:  # warm caches and connections on both paths
        _chat_turn(user=user, message=message)
        _rag_turn(user=user, message=message, embedder=embedder)

    chat_times, rag_times = [], []
    chat_queries = rag_queries = chat_embeds = rag_embeds = 0
    for message in messages:
        with counter.watching(type(embedder)), CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            _chat_turn(user=user, message=message)
            chat_times.append(time.perf_counter() - started)
        chat_queries += len(queries.captured_queries)
        chat_embeds += counter.calls
        counter.calls = 0
        with counter.watching(type(embedder)), CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            _rag_turn(user=user, message=message, embedder=embedder)
            rag_times.append(time.perf_counter() - started)
        rag_queries += len(queries.captured_queries)
        rag_embeds += counter.calls
        counter.calls = 0

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
    remote_p50 = ms(remote_times, 50)
    chat_p50, chat_p99, rag_p50, rag_p99 = ms(chat_times, 50), ms(chat_times, 99), ms(rag_times, 50), ms(rag_times, 99)
    ratio = rag_p50 / chat_p50
    ctx.details["context"] = {
        "memories": memories, "turns": turns, "embedder": getattr(embedder, "name", type(embedder).__name__),
        "chat_ms": {"p50": chat_p50, "p99": chat_p99}, "rag_ms": {"p50": rag_p50, "p99": rag_p99},
        "chat_queries_per_turn": chat_queries / turns, "rag_queries_per_turn": rag_queries / turns,
        "chat_embeddings_per_turn": chat_embeds / turns, "rag_embeddings_per_turn": rag_embeds / turns,
        "rag_remote_embedder_ms": {"p50": remote_p50, "p99": ms(remote_times, 99)},
    }
    note = (f"{turns} turns, user with {memories} memories; baseline = embed the message ({ctx.details['context']['embedder']} "
            "embedder) + pgvector top-10 + render; measured interleaved in one process")
    return [
        Figure("context", "Chat context fetch speed-up vs per-turn RAG, configured embedder (p50)", ratio, None, "×", "≥ 50×", ratio >= 50, note=note),
        Figure("context", "Speed-up vs per-turn RAG with a remote embedder (fake OpenAI on loopback; p50)",
               remote_p50 / chat_p50, None, "×", "≥ 50×", remote_p50 / chat_p50 >= 50,
               note=f"RAG p50 {remote_p50:.1f} ms with the OpenAI embedder client against the in-process fake server "
                    f"({len(remote_times)} turns); a real API adds its network round trip on top"),
        Figure("context", "Chat context fetch p50 (vs RAG p50)", chat_p50, rag_p50, "ms", ratio=rag_p50 / chat_p50),
        Figure("context", "Chat context fetch p99 (vs RAG p99)", chat_p99, rag_p99, "ms", ratio=rag_p99 / chat_p99),
        Figure("context", "Queries per chat turn (vs RAG)", chat_queries / turns, rag_queries / turns, "", "≤ 2", chat_queries / turns <= 2),
        Figure("context", "Embedding calls per chat turn (vs RAG)", chat_embeds / turns, rag_embeds / turns, "", "0", chat_embeds == 0),
    ]
