"""3a. Recall latency for a user with 10k memories inside a table of 1M rows.

The 1M-row table lives in its own database, `bench_memcenter_big`, built once and cached between runs
(building it is the slow part: a few minutes). It is rebuilt only when its fingerprint (rows, users,
dimensions, embedder, BUILD_VERSION, a digest of the memory tables' migrations) no longer matches;
`migrate` and `recall_index_sync()` run on it every time, so it follows the current code. Build:
users are created, then one binary COPY streams 1M rows in random order — 990k for 4,999 other users with random unit vectors at settings.EMBEDDING_DIM, interleaved with the
target user's 10k real synthetic statements embedded by the configured embedder — with the table's
secondary indexes dropped during the load and rebuilt afterwards, then VACUUM ANALYZE (index-only
scans need the visibility map; the same VACUUM runs after a new migration touched the cached table).

Measured: `recall(user=..., query=..., k=10)` — the function the API and `manage.py recall` call —
on natural chat messages, p50/p95, as a web process runs it (MEMORY.md cache and recall's key
cache on, warmed by 20 queries), and again with those caches off (the index-only scan per query). Baseline: the same user with the same 10k memories in the small
bench database (10k rows in the table), so the ratio shows what the other 990k rows cost.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from bench.report import Figure, percentile
from bench.speed_context import memories_create
from bench.synth import memory_statements, user_turns
from dreaming.memory.context import memory_md_render_all
from dreaming.memory.context_cache import memory_md_cache_stop, memory_md_cache_wait_live
from dreaming.models import Memory
from dreaming.providers import get_embedder
from dreaming.memory import recall as recall_module
from dreaming.memory.recall import recall
from dreaming.memory.recall_held import BASIS_DIM, RESCORE_ROWS
from dreaming.memory.recall_key import recall_index_sync

ROOT = Path(__file__).resolve().parent.parent
BIG_DB = "bench_memcenter_big"
# The size (1M memories, 5M messages) in a full run; --quick builds 100k / 500k (its own
# cached database, so the two never rebuild each other). BENCH_RECALL_ROWS / BENCH_RECALL_MESSAGES
# set any other size (the report says which was measured).
FULL_ROWS, QUICK_ROWS = 1_000_000, 100_000
FULL_MESSAGES, QUICK_MESSAGES = 5_000_000, 500_000
TARGET_ROWS = 10_000
OTHER_USERS = 4_999
BUILD_VERSION = 1
TARGET_USERNAME = "bench-recall"


@dataclass(frozen=True)
class Scale:
    rows: int  # memories in the big table
    messages: int  # messages in the big table

    @property
    def database(self) -> str:
        return BIG_DB if self.rows == FULL_ROWS else f"{BIG_DB}_{self.rows}"


def _scale(ctx) -> Scale:
    rows = os.environ.get("BENCH_RECALL_ROWS") or ctx.pick(full=FULL_ROWS, quick=QUICK_ROWS)
    messages = os.environ.get("BENCH_RECALL_MESSAGES") or ctx.pick(full=FULL_MESSAGES, quick=QUICK_MESSAGES)
    return Scale(rows=int(rows), messages=int(messages))


def _fingerprint(embedder_name: str, rows: int) -> str:
    return (f"v{BUILD_VERSION} rows={rows} target={TARGET_ROWS} users={OTHER_USERS + 1} "
            f"dim={settings.EMBEDDING_DIM} embedder={embedder_name} migrations={_migrations_digest()}")


def _migrations_digest() -> str:
    """A changed or new migration of the memory tables means a rebuild (a migration run on 1M rows
    can leave them differently shaped than a fresh build, e.g. derived columns)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "dreaming" / "migrations").glob("*.py")) + sorted((ROOT / "chat" / "migrations").glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


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
    _turns_create(user=user, count=turn_count)
    with_turns = _measure(user=user, queries=queries, embedder=embedder)
    scale = _scale(ctx)
    with _database(scale.database):
        big = _big_measure(ctx, queries=queries, embedder=embedder, turns=turn_count, scale=scale)
    return _figures(ctx, queries=queries, small=small, with_turns=with_turns, turn_count=turn_count, **big)


def _big_measure(ctx, *, queries: list[str], embedder, turns: int, scale: Scale) -> dict:
    """In the big database: recall for the target user without and with their turns, without the key
    cache, the shortlist's plan and its agreement with the exact ranking."""
    built, seconds = _big_table_ensure(ctx, embedder=embedder, scale=scale)
    big_user = get_user_model().objects.get(username=TARGET_USERNAME)
    total = scale.messages
    # Memories alone first, when the messages are not built yet (a cached build holds the user's turns).
    had_turns = _big_messages_cached(turns=turns, total=total)
    big = _measure(user=big_user, queries=queries, embedder=embedder)
    messages, message_seconds = _big_messages_ensure(ctx, user=big_user, turns=turns, total=total)
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
    ms = lambda values, p: 1000 * percentile(values, p)  # noqa: E731
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
                    f"generated in SQL (sessions of {_SESSION_TURNS}, half user turns, indexed, {_OTHER_TURN_WORDS} words "
                    f"each from the {len(_vocabulary())} words of the synthetic turns)"
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


def _turns_create(*, user, count: int) -> None:
    """`count` user turns in kept sessions of 50, indexed as light sleep indexes them."""
    from chat.models import ChatSession, Message
    from dreaming.memory.excerpts import excerpts_index

    now = timezone.now()
    texts = user_turns(count=count, seed=29)
    for start in range(0, count, 2000):
        chunk = texts[start : start + 2000]
        sessions = ChatSession.objects.bulk_create([
            ChatSession(user=user, external_id=f"bench-turns-{start + i}", started_at=now, last_active_at=now,
                        dreamed_at=now, processed_seq=50, triage_kind="normal")
            for i in range(0, len(chunk), 50)
        ])
        messages = Message.objects.bulk_create([
            Message(session=sessions[i // 50], seq=i % 50 + 1, role="user", content=text,
                    created_at=now - timezone.timedelta(minutes=start + i))
            for i, text in enumerate(chunk)
        ])
        excerpts_index(user_id=user.pk, messages=messages)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE chat_message")
        cursor.execute("VACUUM ANALYZE chat_chatsession")


# The other users' messages (issue #18: a user with 50k messages in a table of 5M; Scale above).
_SESSION_TURNS = 50
_OTHER_TURN_WORDS = 12
_MESSAGES_VERSION = 2


def _vocabulary() -> list[str]:
    """The words of the synthetic turns (what the target user says too), so other users' turns share them."""
    import re

    words = {w.lower() for text in user_turns(count=3000, seed=31) for w in re.findall(r"[A-Za-z]{3,}", text)}
    return sorted(words)


def _messages_fingerprint(turns: int, total: int) -> str:
    return f"v{_MESSAGES_VERSION} messages={total} target={turns} migrations={_migrations_digest()}"


def _big_messages_cached(*, turns: int, total: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM bench_cache WHERE key = 'recall_messages'")
        row = cursor.fetchone()
    return bool(row) and row[0] == _messages_fingerprint(turns, total)


def _big_messages_ensure(ctx, *, user, turns: int, total: int) -> tuple[int, float]:
    """The target user's `turns` indexed turns plus other users' sessions up to `total` messages,
    built once and cached like the memory table. Returns (messages, seconds spent building)."""
    from chat.models import Message

    if _big_messages_cached(turns=turns, total=total):
        return Message.objects.count(), 0.0
    ctx.log(f"building the big database's messages: {turns:,} turns of the user, {total:,} messages in all (once)")
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE chat_message, chat_chatsession CASCADE")
    _turns_create(user=user, count=turns)
    _other_messages_create(ctx, count=max(0, total - turns))
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_cache (key, value) VALUES ('recall_messages', %s) "
                       "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [_messages_fingerprint(turns, total)])
    return Message.objects.count(), time.perf_counter() - started


_OTHER_SESSIONS_SQL = f"""
INSERT INTO chat_chatsession (user_id, persona_id, external_id, source, title, started_at, last_active_at, created_at,
                              claimed_at, claimed_by, dreamed_at, processed_seq, attempts, last_error, triage_kind,
                              triage_reason, skipped)
SELECT u.ids[1 + g %% u.n], NULL, 'big-' || g, 'import', '', now(), now(), now(), NULL, '', now(), {_SESSION_TURNS}, 0, '',
       'normal', '', false
FROM generate_series(%(first)s, %(last)s) g,
     (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS n FROM auth_user WHERE username LIKE 'bench-big-%%') u
"""
# The turns' texts come from a pool made once (random draws of the vocabulary, each parsed by
# to_tsvector once): generating and parsing 5M texts one by one was most of the build (1M messages
# took 601 s at load 10). Half the turns are the user's (odd seq), indexed as light sleep indexes
# them: their words plus the owner token.
_TURN_POOL = 50_000
_POOL_SQL = f"""
CREATE TEMP TABLE bench_turn_pool AS
SELECT i, t.content, to_tsvector('english', t.content) AS search
FROM (SELECT i, array_to_string(ARRAY(SELECT (%(words)s::text[])[1 + floor(random() * %(vocabulary)s)::int]
                                      FROM generate_series(1, {_OTHER_TURN_WORDS}) WHERE i >= 0), ' ') AS content
      FROM generate_series(0, {_TURN_POOL - 1}) i) t
"""
_OTHER_MESSAGES_SQL = f"""
INSERT INTO chat_message (session_id, seq, role, content, created_at, external_id, search)
SELECT s.id, k, CASE WHEN k %% 2 = 1 THEN 'user' ELSE 'assistant' END, p.content, now(), '',
       CASE WHEN k %% 2 = 1 THEN p.search || ('mcowner' || s.user_id)::tsvector END
FROM chat_chatsession s
CROSS JOIN generate_series(1, {_SESSION_TURNS}) k
JOIN bench_turn_pool p ON p.i = (s.id * {_SESSION_TURNS} + k) %% {_TURN_POOL}
WHERE s.external_id LIKE 'big-%%' AND s.id BETWEEN %(first_id)s AND %(last_id)s
"""


def _other_messages_create(ctx, *, count: int) -> None:
    """Other users' sessions of 50 messages, generated in SQL in chunks (the GIN index dropped during the load)."""
    sessions = count // _SESSION_TURNS
    words = _vocabulary()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '256MB'")
        cursor.execute("SET synchronous_commit = off")
        cursor.execute("DROP INDEX IF EXISTS chat_message_search_idx")
        cursor.execute("DROP TABLE IF EXISTS bench_turn_pool")
        cursor.execute(_POOL_SQL, {"words": words, "vocabulary": len(words)})
        cursor.execute("CREATE UNIQUE INDEX ON bench_turn_pool (i)")
        cursor.execute("ANALYZE bench_turn_pool")
        for first in range(1, sessions + 1, 10_000):
            last = min(sessions, first + 9_999)
            cursor.execute(_OTHER_SESSIONS_SQL, {"first": first, "last": last})
            cursor.execute("SELECT min(id), max(id) FROM chat_chatsession WHERE external_id IN (%s, %s)",
                           [f"big-{first}", f"big-{last}"])
            first_id, last_id = cursor.fetchone()
            cursor.execute(_OTHER_MESSAGES_SQL, {"first_id": first_id, "last_id": last_id})
            ctx.log(f"  {last * _SESSION_TURNS:,} other messages")
        cursor.execute("DROP TABLE bench_turn_pool")
        ctx.log("  rebuilding the search index")
        cursor.execute("CREATE INDEX chat_message_search_idx ON chat_message USING gin (search)")
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET synchronous_commit")
        cursor.execute("VACUUM ANALYZE chat_message")
        cursor.execute("VACUUM ANALYZE chat_chatsession")
        cursor.execute("ANALYZE chat_searchterm")


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


class _database:
    """Point the default connection at another database for a while (created if missing)."""

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        self.saved = connection.settings_dict["NAME"]
        self._create(drop_first=False)
        self._switch(self.name)
        applied = self._applied()
        try:
            call_command("migrate", verbosity=0, interactive=False)
        except Exception:
            # The cache no longer fits the migrations (one was renamed or rewritten): start over.
            self._switch(self.saved)
            self._create(drop_first=True)
            self._switch(self.name)
            applied = 0
            call_command("migrate", verbosity=0, interactive=False)
        recall_index_sync()  # idempotent: recall's index and SQL functions as the current code defines them
        if applied and self._applied() != applied:
            # A new migration rewrote rows of the cached table: index-only scans need the visibility
            # map back, and the planner fresh statistics.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE " + Memory._meta.db_table)
        return self

    def _create(self, *, drop_first: bool) -> None:
        with connection.creation._nodb_cursor() as cursor:
            if drop_first:
                cursor.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [self.name])
            if cursor.fetchone() is None:
                cursor.execute(f'CREATE DATABASE "{self.name}"')

    @staticmethod
    def _applied() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass('django_migrations') IS NOT NULL")
            if not cursor.fetchone()[0]:
                return 0
            cursor.execute("SELECT count(*) FROM django_migrations")
            return cursor.fetchone()[0]

    def __exit__(self, *exc):
        self._switch(self.saved)

    @staticmethod
    def _switch(name: str) -> None:
        # The MEMORY.md cache's listener listens on the database it started with, and its entries
        # are keyed by user id, which means another user in another database: start over.
        memory_md_cache_stop()
        connection.close()
        connection.settings_dict["NAME"] = name
        settings.DATABASES[connection.alias]["NAME"] = name


def _big_table_ensure(ctx, *, embedder, scale: Scale) -> tuple[bool, float]:
    fingerprint = _fingerprint(getattr(embedder, "name", type(embedder).__name__), scale.rows)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_cache (key text PRIMARY KEY, value text NOT NULL)")
        cursor.execute("SELECT value FROM bench_cache WHERE key = 'recall_table'")
        row = cursor.fetchone()
    if row and row[0] == fingerprint and Memory.objects.count() == scale.rows:
        ctx.log(f"reusing cached {scale.database} ({fingerprint})")
        return False, 0.0
    ctx.log(f"building {scale.database}: {scale.rows:,} rows (once; cached afterwards)")
    started = time.perf_counter()
    with connection.cursor() as cursor:  # the rebuild truncates the users, and their messages with them
        cursor.execute("DELETE FROM bench_cache WHERE key = 'recall_messages'")
    _big_table_build(ctx, embedder=embedder, rows=scale.rows)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO bench_cache (key, value) VALUES ('recall_table', %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            [fingerprint],
        )
    return True, time.perf_counter() - started


def _big_table_build(ctx, *, embedder, rows: int) -> None:
    import psycopg
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Jsonb

    User = get_user_model()
    with connection.cursor() as cursor:  # a rebuild starts from empty tables (the ORM's cascade would crawl)
        cursor.execute(f"TRUNCATE {User._meta.db_table} RESTART IDENTITY CASCADE")
    target = User.objects.create(username=TARGET_USERNAME)
    others = User.objects.bulk_create([User(username=f"bench-big-{i}") for i in range(OTHER_USERS)], batch_size=1000)
    other_ids = np.array([u.pk for u in others])

    pairs = memory_statements(count=TARGET_ROWS, seed=5)
    target_vectors = []
    for start in range(0, len(pairs), 512):
        target_vectors += embedder.embed([s for _, s in pairs[start : start + 512]], kind="document")

    table = Memory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname NOT LIKE %s", [table, "%_pkey"]
        )
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
        cursor.execute(
            "SELECT column_name, udt_name FROM information_schema.columns WHERE table_name = %s AND column_name <> 'id' "
            "ORDER BY ordinal_position", [table],
        )
        columns = cursor.fetchall()

    rng = np.random.default_rng(1)
    dim = settings.EMBEDDING_DIM
    now = timezone.now()
    is_target = np.zeros(rows, dtype=bool)
    is_target[rng.choice(rows, TARGET_ROWS, replace=False)] = True
    owners = rng.choice(other_ids, size=rows)
    ages = rng.integers(0, 700, size=rows)
    categories = ["fact", "preference", "event", "emotion", "relation"]
    fields = {f.column: f for f in Memory._meta.concrete_fields}
    names = [name for name, _ in columns]
    defaults = {name: fields[name].get_default() if name in fields else None for name in names}
    defaults = {name: Jsonb(v) if isinstance(v, (dict, list)) else v for name, v in defaults.items()}
    copy_sql = f"COPY {table} ({', '.join(names)}) FROM STDIN WITH (FORMAT BINARY)"

    target_index = 0
    params = {k: v for k, v in connection.get_connection_params().items() if k not in ("cursor_factory", "context")}
    with psycopg.connect(**params) as raw:
        register_vector(raw)
        with raw.cursor() as cursor, cursor.copy(copy_sql) as copy:
            copy.set_types([udt for _, udt in columns])
            block = None
            for i in range(rows):
                if i % 10_000 == 0:
                    block = rng.standard_normal((10_000, dim), dtype=np.float32)
                    block /= np.linalg.norm(block, axis=1, keepdims=True)
                    if i % 100_000 == 0:
                        ctx.log(f"  {i:,} rows")
                seen = now - timezone.timedelta(days=int(ages[i]))
                if is_target[i]:
                    category, statement = pairs[target_index]
                    vector = np.asarray(target_vectors[target_index], dtype=np.float32)
                    user_id, target_index = target.pk, target_index + 1
                else:
                    category, statement = categories[i % 5], f"User mentioned thing number {i}."
                    vector, user_id = block[i % 10_000], int(owners[i])
                values = {
                    **defaults, "user_id": user_id, "persona_id": None, "statement": statement, "category": category,
                    "confidence": float(0.3 + 0.7 * ((i * 7919) % 97) / 97), "importance": float(((i * 104729) % 89) / 89),
                    "status": "active", "valid_from": seen, "first_seen": seen, "last_seen": seen, "valid_to": None,
                    "superseded_by_id": None, "last_recalled_at": None, "embedding": vector,
                    "score_breakdown": Jsonb({}), "created_at": now, "updated_at": now,
                }
                copy.write_row([values[name] for name in names])
        raw.commit()
    ctx.log("  rebuilding indexes")
    with connection.cursor() as cursor:
        for _, definition in indexes:
            cursor.execute(definition)
        cursor.execute("VACUUM ANALYZE " + table)
    memory_md_render_all(user=target)
