"""3a. Recall latency for a user with 10k memories and 50k turns inside tables of 1M memories and 5M messages.

The big tables live in their own database, built once and cached between runs (bench/recall_tables.py;
sizes: Scale, 100k / 500k with --quick). Measured: `recall(user=..., query=..., k=10)` — the function
the API and `manage.py recall` call — on natural chat messages, p50/p95, as a web process runs it
(MEMORY.md cache and recall's held memories on, warmed by 20 queries), and again with those caches
off (the index-only scan per query), each timing with the host's load average. Baseline: the same
user with the same memories (and turns) alone in the small bench database, so the ratio shows what
the other users' rows cost. Quality: overlap@10 of recall's memory ranking with the exact score of
every memory of the user, for both paths.
"""
from __future__ import annotations

import os
import time

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from bench.recall_tables import (
    OTHER_TURN_WORDS,
    SESSION_TURNS,
    TARGET_ROWS,
    TARGET_USERNAME,
    Scale,
    big_messages_cached,
    big_messages_ensure,
    big_table_ensure,
    recall_scale,
    switched_database,
    turns_create,
    vocabulary,
)
from bench.report import Figure, percentile
from bench.speed_context import memories_create
from bench.synth import user_turns
from dreaming.memory import recall as recall_module
from dreaming.memory.context_cache import memory_md_cache_wait_live
from dreaming.memory.recall import recall
from dreaming.memory.recall_held import BASIS_DIM, RESCORE_ROWS
from dreaming.models import Memory
from dreaming.providers import get_embedder


class Timing(list):
    """Seconds per recall, with the host's 1-minute load average before and after (a shared machine)."""

    load: tuple[float, float] = (0.0, 0.0)

    def load_note(self) -> str:
        return f"load {self.load[0]:.1f}→{self.load[1]:.1f}"


def _measure(*, user, queries: list[str], embedder) -> Timing:
    times = Timing()
    load_before = os.getloadavg()[0]
    if settings.MEMORY_MD_CACHE:
        memory_md_cache_wait_live()  # as in a running web process: the listener is up
    for query in queries[:20]:  # warm the buffer cache and the code paths
        recall(user=user, query=query, k=10, embedder=embedder)
    for query in queries:
        started = time.perf_counter()
        recall(user=user, query=query, k=10, embedder=embedder)
        times.append(time.perf_counter() - started)
    times.load = (load_before, os.getloadavg()[0])
    return times


def _held_read_seconds(*, user) -> float:
    """What the first recall of a user after a change of their memories pays once (median of 3)."""
    from dreaming.memory.recall_held import held_memories_read

    runs = []
    for _ in range(3):
        started = time.perf_counter()
        held_memories_read(user_id=user.pk)
        runs.append(time.perf_counter() - started)
    return sorted(runs)[1]


def run(ctx) -> list[Figure]:
    embedder = get_embedder()
    queries = user_turns(count=ctx.pick(full=300, quick=100), seed=17)

    ctx.log(f"baseline: {TARGET_ROWS} memories alone in the bench database")
    user = get_user_model().objects.create(username=TARGET_USERNAME)
    memories_create(user=user, count=TARGET_ROWS, embedder=embedder, seed=5)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE dreaming_memory")
    small = _measure(user=user, queries=queries, embedder=embedder)
    turn_count = ctx.pick(full=50_000, quick=10_000)
    ctx.log(f"the same user with {turn_count:,} indexed user turns (recall's excerpts)")
    turns_create(user=user, count=turn_count)
    with_turns = _measure(user=user, queries=queries, embedder=embedder)
    scale = recall_scale(ctx)
    with switched_database(scale.database):
        big = _big_measure(ctx, queries=queries, embedder=embedder, turns=turn_count, scale=scale)
    return _figures(ctx, queries=queries, small=small, with_turns=with_turns, turn_count=turn_count, **big)


def _big_measure(ctx, *, queries: list[str], embedder, turns: int, scale: Scale) -> dict:
    """In the big database: recall for the target user without and with their turns, without the key
    cache, the shortlist's plan and its agreement with the exact ranking."""
    built, seconds = big_table_ensure(ctx, embedder=embedder, scale=scale)
    big_user = get_user_model().objects.get(username=TARGET_USERNAME)
    total = scale.messages
    # Memories alone first, when the messages are not built yet (a cached build holds the user's turns).
    had_turns = big_messages_cached(turns=turns, total=total)
    big = _measure(user=big_user, queries=queries, embedder=embedder)
    messages, message_seconds = big_messages_ensure(ctx, user=big_user, turns=turns, total=total)
    big_turns = _measure(user=big_user, queries=queries, embedder=embedder)
    with _key_cache_off():  # the index-only scan on every query
        scan = _measure(user=big_user, queries=queries, embedder=embedder)
    agreement_queries = queries[: ctx.pick(full=150, quick=50)]
    overlap, identical = _agreement(user=big_user, queries=agreement_queries, embedder=embedder)
    with _key_cache_off():
        index_overlap, _ = _agreement(user=big_user, queries=agreement_queries, embedder=embedder)
    return {
        "index_overlap": index_overlap, "held_read": _held_read_seconds(user=big_user),
        "built": built, "seconds": seconds, "rows": Memory.objects.count(), "mine": Memory.objects.filter(user=big_user).count(),
        "big": big, "had_turns": had_turns, "messages": messages, "message_seconds": message_seconds,
        "big_turns": big_turns, "scan": scan, "plan": _shortlist_plan(user=big_user, query=queries[0], embedder=embedder),
        "overlap": overlap, "identical": identical,
    }


def _figures(ctx, *, queries, small, with_turns, turn_count, built, seconds, rows, mine, big, had_turns, messages,
             message_seconds, big_turns, scan, plan, overlap, identical, index_overlap, held_read) -> list[Figure]:
    ms = lambda values, p: 1000 * percentile(values, p)
    cache_note = (f"built the {rows:,}-row table in {seconds:.0f} s" if built
                  else f"reused the cached {rows:,}-row database")
    ctx.details["recall"] = {
        "rows": rows, "user_rows": mine, "queries": len(queries), "built": built, "build_seconds": seconds,
        "messages": messages, "messages_build_seconds": message_seconds,
        **{name: {"p50": ms(values, 50), "p95": ms(values, 95)} for name, values in (
            ("big_ms", big), ("small_ms", small), ("small_turns_ms", with_turns), ("big_turns_ms", big_turns),
            ("big_index_scan_ms", scan))},
        "exact_overlap_at_10": overlap, "exact_identical_top_10": identical, "shortlist_plan": plan,
        "index_path_overlap_at_10": index_overlap, "held_read_ms": 1000 * held_read,
        "load": {name: values.load for name, values in (("small", small), ("small_turns", with_turns), ("big", big),
                                                         ("big_turns", big_turns), ("big_index_scan", scan))},
    }
    return [
        Figure("recall", f"Recall p95, {mine:,} memories and {turn_count:,} turns in {rows:,} memories and "
               f"{messages:,} messages (vs the same user alone)", ms(big_turns, 95), ms(with_turns, 95), "ms", "≤ 10 ms",
               ms(big_turns, 95) <= 10, ratio=ms(big_turns, 95) / ms(with_turns, 95),
               note=f"p50 {ms(big_turns, 50):.2f} ms (alone {ms(with_turns, 50):.2f} ms); {big_turns.load_note()} "
                    f"(alone {with_turns.load_note()}); the other users' messages are "
                    f"generated in SQL (sessions of {SESSION_TURNS}, half user turns, indexed, {OTHER_TURN_WORDS} words "
                    f"each from the {len(vocabulary())} words of the synthetic turns)"
                    + (f"; built in {message_seconds:.0f} s" if message_seconds else "; reused the cached messages")),
        Figure("recall", f"Recall p95, {mine:,} memories in {rows:,} rows (vs alone)"
               + (" — the user's turns present (cached build)" if had_turns else ""), ms(big, 95), ms(small, 95), "ms",
               "≤ 10 ms", ms(big, 95) <= 10, ratio=ms(big, 95) / ms(small, 95),
               note=f"{len(queries)} chat messages as queries, k=10, recall() with its stats update; {big.load_note()} "
                    f"(alone {small.load_note()}); {cache_note}; "
                    f"the planner's shortlist plan on this table: {plan}"),
        Figure("recall", f"Recall p50, {mine:,} memories in {rows:,} rows (vs alone)", ms(big, 50), ms(small, 50), "ms",
               ratio=ms(big, 50) / ms(small, 50)),
        Figure("recall", f"Recall p95 with {turn_count:,} of the user's turns to search for excerpts, alone (vs memories only)",
               ms(with_turns, 95), ms(small, 95), "ms", "≤ 10 ms", ms(with_turns, 95) <= 10,
               ratio=ms(with_turns, 95) / ms(small, 95),
               note=f"p50 {ms(with_turns, 50):.2f} ms; the same {TARGET_ROWS:,} memories plus {turn_count:,} synthetic user "
                    "turns in kept sessions, indexed as light sleep does"),
        Figure("recall", "Recall p95 without the process's key cache: index-only scan per query (vs with it)",
               ms(scan, 95), ms(big_turns, 95), "ms", ratio=ms(scan, 95) / ms(big_turns, 95),
               note=f"p50 {ms(scan, 50):.2f} ms; {scan.load_note()}; MEMORY_MD_CACHE off (as in a transaction, or with PgBouncer in transaction "
                    "mode): the shortlist comes from memory_recall_shortlist() instead of the memories held by the process"),
        Figure("recall", "Recall top 10 vs scoring every memory exactly (overlap@10)", overlap, None, "", "≥ 0.95",
               overlap >= 0.95,
               note=f"recall's ranking as a web process runs it (the user's memories held by the process: keyword "
                    f"match and factors exact for all, the cosine estimated in a {BASIS_DIM}-dim basis of the user's "
                    f"embeddings, the best {RESCORE_ROWS:,} scored exactly) against the same score computed for all "
                    f"{mine:,} memories of the user in NumPy; identical top 10 in {identical:.0%} of queries; the first "
                    f"recall after a change of the user's memories reads them once: {1000 * held_read:.0f} ms"),
        Figure("recall", "Recall top 10 without the process's cache (index path) vs exact (overlap@10)", index_overlap,
               None, "", note=f"MEMORY_MD_CACHE off: the 64-dim database key's {recall_module.COARSE_CANDIDATES} best "
                              "scored exactly (approximate; docs/context.md)"),
    ]




class _key_cache_off:
    """MEMORY_MD_CACHE off for a while: recall reads MEMORY.md and shortlists in the database."""

    def __enter__(self):
        self.saved = settings.MEMORY_MD_CACHE
        settings.MEMORY_MD_CACHE = False

    def __exit__(self, *exc):
        settings.MEMORY_MD_CACHE = self.saved


def _shortlist_plan(*, user, query: str, embedder) -> str:
    """How Postgres runs the shortlist function's query here (with the function's own settings)."""
    from dreaming.memory.recall import _vector_literal
    from dreaming.memory.recall_key import COARSE_CANDIDATES, recall_query_key

    vector = embedder.embed([query], kind="query")[0]
    key = _vector_literal(recall_query_key(vector))
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc, proconfig FROM pg_proc WHERE proname = 'memory_recall_shortlist'")
        body, config = cursor.fetchone()
        with transaction.atomic():
            for setting in config or []:
                cursor.execute("SELECT set_config(%s, %s, true)", setting.split("=", 1))
            for name, value in (("p_user_id", str(int(user.pk))), ("p_persona_id", "NULL::bigint"),
                                ("p_key", f"'{key}'::vector"), ("p_limit", str(COARSE_CANDIDATES))):
                body = body.replace(name, value)
            cursor.execute("EXPLAIN " + body)
            lines = [row[0].strip() for row in cursor.fetchall()]
    scans = [line.split("  (")[0].lstrip("-> ") for line in lines if "Scan" in line]
    return "; ".join(scans)


def _agreement(*, user, queries: list[str], embedder) -> tuple[float, float]:
    """Mean overlap@10 and share of identical top 10s: recall() vs the exact score of every memory."""
    from dreaming.memory.recall import TEXT_WEIGHT, query_keywords

    rows = list(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE, embedding__isnull=False)
                .values_list("id", "statement", "importance", "confidence", "last_seen", "embedding"))
    ids = np.array([r[0] for r in rows])
    statements = [r[1].lower() for r in rows]
    vectors = np.array([r[5] for r in rows], dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    now = timezone.now()
    tau = settings.RECALL_TAU_WEEKS * 7 * 86400
    ages = np.array([max(0.0, (now - r[4]).total_seconds()) for r in rows])
    factors = ((0.6 + 0.4 * np.exp(-ages / tau)) * (0.5 + 0.5 * np.array([r[2] for r in rows]))
               * (0.7 + 0.3 * np.array([r[3] for r in rows])))
    overlap = identical = 0.0
    for query in queries:
        q = np.asarray(embedder.embed([query], kind="query")[0], dtype=np.float64)
        similarity = np.clip(vectors @ (q / np.linalg.norm(q)), 0, 1)
        keywords = query_keywords(query)
        if keywords:
            total = sum(w for _, w in keywords)
            text = np.array([sum(w for word, w in keywords if word in s) for s in statements]) / total
            similarity = (1 - TEXT_WEIGHT) * similarity + TEXT_WEIGHT * text
        exact = list(ids[np.lexsort((ids, -(similarity * factors)))[:10]])
        # The memory ranking alone (recall's excerpts are another list, fused after it).
        found = [r.id for r in recall_module._memories_ranked(user_id=user.pk, persona_id=None, query=query, vector=q.tolist(),
                                                              exclude_ids=[], now=now)[:10]]
        overlap += len(set(found) & set(exact)) / 10
        identical += found == exact
    return overlap / len(queries), identical / len(queries)


