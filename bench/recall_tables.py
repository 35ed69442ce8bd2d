"""The recall row's big tables (bench/speed_recall.py): a second database, built fast and cached.

Memories: users are created, then one binary COPY streams the rows in random order — the other users'
random unit vectors at settings.EMBEDDING_DIM, interleaved with the target user's 10k real synthetic
statements embedded by the configured embedder — with the table's secondary indexes dropped during
the load and rebuilt afterwards, then VACUUM ANALYZE (index-only scans need the visibility map).
Messages: the target user's turns through the ORM and light sleep's indexing, the other users'
sessions and turns by INSERT … SELECT in SQL. Both are rebuilt only when their fingerprint no longer
matches; `migrate` and `recall_index_sync()` run on the database every time (switched_database).
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
from django.db import connection
from django.utils import timezone

from bench.synth import memory_statements, user_turns
from dreaming.memory.context import memory_md_render_all
from dreaming.memory.context_cache import memory_md_cache_stop
from dreaming.memory.recall_key import recall_index_sync
from dreaming.memory.recall_stats import recall_stats_stop
from dreaming.models import Memory

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


def recall_scale(ctx) -> Scale:
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




def turns_create(*, user, count: int) -> None:
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
SESSION_TURNS = 50
OTHER_TURN_WORDS = 12
_MESSAGES_VERSION = 2


def vocabulary() -> list[str]:
    """The words of the synthetic turns (what the target user says too), so other users' turns share them."""
    import re

    words = {w.lower() for text in user_turns(count=3000, seed=31) for w in re.findall(r"[A-Za-z]{3,}", text)}
    return sorted(words)


def _messages_fingerprint(turns: int, total: int) -> str:
    return f"v{_MESSAGES_VERSION} messages={total} target={turns} migrations={_migrations_digest()}"


def big_messages_cached(*, turns: int, total: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM bench_cache WHERE key = 'recall_messages'")
        row = cursor.fetchone()
    return bool(row) and row[0] == _messages_fingerprint(turns, total)


def big_messages_ensure(ctx, *, user, turns: int, total: int) -> tuple[int, float]:
    """The target user's `turns` indexed turns plus other users' sessions up to `total` messages,
    built once and cached like the memory table. Returns (messages, seconds spent building)."""
    from chat.models import Message

    if big_messages_cached(turns=turns, total=total):
        return Message.objects.count(), 0.0
    ctx.log(f"building the big database's messages: {turns:,} turns of the user, {total:,} messages in all (once)")
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE chat_message, chat_chatsession CASCADE")
    turns_create(user=user, count=turns)
    _other_messages_create(ctx, count=max(0, total - turns))
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_cache (key, value) VALUES ('recall_messages', %s) "
                       "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [_messages_fingerprint(turns, total)])
    return Message.objects.count(), time.perf_counter() - started


_OTHER_SESSIONS_SQL = f"""
INSERT INTO chat_chatsession (user_id, persona_id, external_id, source, title, started_at, last_active_at, created_at,
                              claimed_at, claimed_by, dreamed_at, processed_seq, attempts, last_error, triage_kind,
                              triage_reason, skipped)
SELECT u.ids[1 + g %% u.n], NULL, 'big-' || g, 'import', '', now(), now(), now(), NULL, '', now(), {SESSION_TURNS}, 0, '',
       'normal', '', false
FROM generate_series(%(first)s, %(last)s) g,
     (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS n FROM auth_user WHERE username LIKE 'bench-big-%%') u
"""
# The turns' texts come from a pool made once (random draws of the vocabulary, each parsed by
# to_tsvector once): generating and parsing 5M texts one by one was most of the build (1M messages
# took 601 s at load 10). Half the turns are the user's (odd seq), indexed as light sleep indexes
# them: their words plus the owner token, each lexeme prefixed by its owner (chat_owned_search).
_TURN_POOL = 50_000
_POOL_SQL = f"""
CREATE TEMP TABLE bench_turn_pool AS
SELECT i, t.content, to_tsvector('english', t.content) AS search
FROM (SELECT i, array_to_string(ARRAY(SELECT (%(words)s::text[])[1 + floor(random() * %(vocabulary)s)::int]
                                      FROM generate_series(1, {OTHER_TURN_WORDS}) WHERE i >= 0), ' ') AS content
      FROM generate_series(0, {_TURN_POOL - 1}) i) t
"""
_OTHER_MESSAGES_SQL = f"""
INSERT INTO chat_message (session_id, seq, role, content, created_at, external_id, search)
SELECT s.id, k, CASE WHEN k %% 2 = 1 THEN 'user' ELSE 'assistant' END, p.content, now(), '',
       CASE WHEN k %% 2 = 1 THEN chat_owned_search(s.user_id, p.search || ('mcowner' || s.user_id)::tsvector) END
FROM chat_chatsession s
CROSS JOIN generate_series(1, {SESSION_TURNS}) k
JOIN bench_turn_pool p ON p.i = (s.id * {SESSION_TURNS} + k) %% {_TURN_POOL}
WHERE s.external_id LIKE 'big-%%' AND s.id BETWEEN %(first_id)s AND %(last_id)s
"""


def _other_messages_create(ctx, *, count: int) -> None:
    """Other users' sessions of 50 messages, generated in SQL in chunks (the GIN index dropped during the load)."""
    sessions = count // SESSION_TURNS
    words = vocabulary()
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
            ctx.log(f"  {last * SESSION_TURNS:,} other messages")
        cursor.execute("DROP TABLE bench_turn_pool")
        ctx.log("  rebuilding the search index")
        cursor.execute("CREATE INDEX chat_message_search_idx ON chat_message USING gin (search)")
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET synchronous_commit")
        cursor.execute("VACUUM ANALYZE chat_message")
        cursor.execute("VACUUM ANALYZE chat_chatsession")
        cursor.execute("ANALYZE chat_searchterm")




class switched_database:
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
        # are keyed by user id, which means another user in another database: start over. The same
        # for the recall counts noted so far: written to the database they belong to.
        memory_md_cache_stop()
        recall_stats_stop()
        connection.close()
        connection.settings_dict["NAME"] = name
        settings.DATABASES[connection.alias]["NAME"] = name


def big_table_ensure(ctx, *, embedder, scale: Scale) -> tuple[bool, float]:
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

