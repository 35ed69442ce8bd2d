"""Recall: the long tail of memory that does not fit in MEMORY.md, fetched on demand.

Ranking (see docs/context.md):

    similarity   = 1 − cosine distance (pgvector), clamped to 0..1
    text_match   = weighted share of the query's keywords found verbatim in the statement
    fused        = (1 − TEXT_WEIGHT)·similarity + TEXT_WEIGHT·text_match   (similarity alone if the
                   query has no keywords)
    recency      = exp(−age / τ), age = now − last_seen, τ = RECALL_TAU_WEEKS weeks
    score        = fused × (0.6 + 0.4·recency) × (0.5 + 0.5·importance) × (0.7 + 0.3·confidence)

The affine factors keep the product from collapsing: an old, unimportant memory that matches the
question exactly still beats a fresh, important one about something else.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection
from django.utils import timezone

from chat.models import ChatSession, Message, Persona
from dreaming.context import memory_md_cache_usable, memory_md_get
from dreaming.context_cache import recall_keys_cached
from dreaming.models import Memory, MemoryDocument, MemoryRecall, MemorySettings, MemorySource, Phase
from dreaming.providers import CallContext, Embedder, get_embedder

TEXT_WEIGHT = 0.35
MAX_KEYWORDS = 8
RECALL_MAX_K = 50

RECALL_TOOL: dict = {
    "type": "function",
    "function": {
        "name": "recall_memory",
        "description": (
            "Search what you remember about the user beyond the MEMORY.md in your instructions: "
            "names, dates, events, preferences they mentioned in earlier conversations. Call it when "
            "the user refers to something you should know but MEMORY.md does not say. Returns "
            "memories with the date the user said them and their own words."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What to look for, in the user's language, e.g. 'name of the user's dog' or '女儿的生日'.",
                },
                "k": {"type": "integer", "minimum": 1, "maximum": RECALL_MAX_K, "description": "How many memories (default 10)."},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}


@dataclass
class RecallResult:
    id: int
    statement: str
    category: str
    score: float
    parts: dict = field(default_factory=dict)
    sources: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


# --- Keywords for the text match ---------------------------------------------------------
# Exact names, dates and numbers are where embeddings are weakest, so the query's content words
# are matched verbatim (case-insensitive substring, so it works for Chinese without a tokenizer).
_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being both but by can
    could did do does doing done for from had has have having he her here hers him his how i if in into is
    it its just know like likes me more most my no not now of on or our out over remember said say she so
    some such tell than that the their them then there these they this those to too up us user user's
    very was we were what when where which while who whom why will with would you your yours""".split()
)
_ZH_STOP = frozenset("用户 什么 怎么 哪里 哪个 为什么 我们 你们 他们 她们 是不是 有没有 记得 知道 告诉 一下 喜欢吗 的 了 吗 呢 吧 啊 是 我 你 他 她 在 有 和 也 都 就 还".split())
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
_HAN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def query_keywords(query: str) -> list[tuple[str, float]]:
    """(keyword, weight): names (capitalised) and numbers of 2+ digits weigh 2, other content words 1.

    Chinese runs are cut into overlapping two-character pieces (most Chinese words and names
    are two characters), minus a few function words.
    """
    found: dict[str, float] = {}
    for position, match in enumerate(_WORD_RE.finditer(query)):
        word = match.group()
        for run in _HAN_RE.findall(word):
            pieces = [run] if len(run) <= 2 else [run[i : i + 2] for i in range(len(run) - 1)]
            for piece in pieces:
                if piece not in _ZH_STOP and not all(ch in _ZH_STOP for ch in piece):
                    found.setdefault(piece, 1.0)
        latin = _HAN_RE.sub(" ", word).strip()
        for token in latin.split():
            lowered = token.lower()
            # Single digits ("7") and two-letter words match inside too many statements.
            if lowered in _STOPWORDS or len(token) < (2 if token.isdigit() else 3):
                continue
            # A capital at the very start of the question is grammar, not a name.
            is_name = token[:1].isupper() and (position > 0 or token.isupper())
            weight = 2.0 if is_name or token.isdigit() else 1.0
            found[lowered] = max(found.get(lowered, 0.0), weight)
    # Prefer the heaviest keywords when a long question has too many.
    ranked = sorted(found.items(), key=lambda item: -item[1])
    return ranked[:MAX_KEYWORDS]


# --- The ranking ---------------------------------------------------------------------------
def recall_score(parts: dict) -> float:
    """parts: similarity, text_match (None = the query had no keywords), recency, importance, confidence."""
    fused = parts["similarity"] if parts["text_match"] is None else (1 - TEXT_WEIGHT) * parts["similarity"] + TEXT_WEIGHT * parts["text_match"]
    return fused * (0.6 + 0.4 * parts["recency"]) * (0.5 + 0.5 * parts["importance"]) * (0.7 + 0.3 * parts["confidence"])


# Coarse to fine. Scanning a user's full vectors is the cost of recall: 10k memories × 2 KB is 20 MB
# of index pages per query (~13 ms of Postgres CPU). So each memory also carries a small SHORTLIST
# KEY (`recall_key`, 64 dims, written only by the database) whose inner product with the query's
# key orders memories by an estimate of the score:
#
#     key(memory) · key(query) = cos̃ × (0.5 + 0.5·importance)(0.7 + 0.3·confidence) × e^{α(seen − REF)/τ₀}
#
# cos̃ is the cosine of KEY_DIM-dim random projections of the two embeddings (a fixed ±1 matrix,
# Johnson–Lindenstrauss). e^{α(seen − REF)/τ₀} = e^{−α·age/τ₀} × e^{α(now − REF)/τ₀}: the second
# factor is the same for every memory of a query, so ordering by the key is ordering by
# cos̃ × importance and confidence factors × e^{−α·age/τ₀}, a multiplicative stand-in for the
# score's (0.6 + 0.4·e^{−age/τ}) — and the query key does not depend on the time at all. One
# C-level inner product per memory replaces the previous per-row SQL expression; the key is 256
# bytes, because measured on 10k memories the index-only scan costs in proportion to its bytes
# (4.2 ms for 64 dims, 6.4 for 128, 9.0 for 256 on a loaded box). Quality, top 10 of recall vs the
# exact score of every memory, 10k memories (docs/context.md): 64-dim count sketch + additive factors
# (previous design) 0.76; this key 0.80; 128 dims would give 0.89 at 1.5× the scan.
# Recall reads the keys of the user's active memories with an index-only scan, keeps the
# COARSE_CANDIDATES best, and scores only those exactly: full-embedding cosine (joined by primary
# key) + keyword match + the factors with the configured τ, in Python.
# τ₀ and α are fixed because stored keys cannot follow a setting; the exact stage uses
# RECALL_TAU_WEEKS. REF keeps the exponent small: float4 holds e^±80, i.e. last_seen within ±160 τ₀
# (80 years) of REF; beyond that it is clamped, which only flattens the shortlist's recency. Rows
# without an embedding have no key and sort last.
KEY_DIM = 64
KEY_TAU_SECONDS = 26 * 7 * 86400.0
KEY_RECENCY_POWER = 0.5  # α
KEY_REF_EPOCH = 1735689600.0  # 2025-01-01T00:00:00Z
_KEY_EXP_LIMIT = 80.0
COARSE_CANDIDATES = 200  # rows of the shortlist, scored exactly

# MEMORY.md's ids are excluded AFTER the scan: the shortlist takes `limit + len(exclude)` rows and
# the excluded ones are dropped from those, which leaves exactly the best `limit` of the rest.
# Inside the scan, `NOT (id = ANY(exclude))` compared every one of the user's rows with every id of
# MEMORY.md (10k × ~70): 4.6 ms of the query's 11.
# What the exact stage reads of each shortlisted memory (the shortlist from the index or from the
# process's keys): the scoring loop in recall() unpacks exactly these columns.
_EXACT_COLUMNS = """m.id, m.statement, m.category, m.importance, m.confidence, EXTRACT(EPOCH FROM m.last_seen)::float8,
       m.embedding <=> %(vector)s::vector"""
_CANDIDATES_SQL = f"""
SELECT {_EXACT_COLUMNS}
FROM memory_recall_shortlist(%(user_id)s, %(persona_id)s, %(key)s::vector, %(scan)s) s
JOIN {Memory._meta.db_table} m ON m.id = s.memory_id
WHERE NOT (s.memory_id = ANY(%(exclude)s::bigint[]))
LIMIT %(limit)s
"""


def _vector_literal(values) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in values) + "]"


def recall_candidates(
    *, user_id: int, persona_id: int | None, vector: list[float], exclude_ids: list[int], limit: int | None = None,
    cached: bool | None = None,
) -> list[tuple]:
    """The shortlist's rows (COARSE_CANDIDATES unless `limit`) with their EXACT cosine distance (last column).

    With the process cache usable (`cached` None = decide here), the shortlist comes from the
    user's keys held in memory; otherwise from the index-only scan in the database.
    """
    if cached if cached is not None else memory_md_cache_usable():
        return _candidates_from_cached_keys(
            user_id=user_id, persona_id=persona_id, vector=vector, exclude_ids=exclude_ids, limit=limit or COARSE_CANDIDATES,
        )
    exclude = sorted({int(i) for i in exclude_ids})
    params = {
        "vector": _vector_literal(vector),
        "key": _vector_literal(recall_query_key(vector)),
        "user_id": user_id,
        "persona_id": persona_id,
        "exclude": exclude,
        "limit": limit or COARSE_CANDIDATES,
        "scan": (limit or COARSE_CANDIDATES) + len(exclude),
    }
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_SQL, params)
        return cursor.fetchall()


# --- The shortlist from keys held by the process ---------------------------------------------
# The index-only scan above reads and sorts 10k tuples per query: ~3 ms of recall's ~6 on this
# machine, and twice that when the host is slow. A process that serves recall keeps each user's
# keys (ids, personas, the 64-float keys: 264 bytes per memory, 2.6 MB for 10k) and ranks them with
# one NumPy product (~0.1 ms). The keys stay correct the way MEMORY.md's cache does: the memory table
# notifies the user's id on every insert, delete and change of owner, status, persona or key
# (migration 0009) and the process's listener drops that user's keys; a read that raced a
# notification is not stored. Between a commit and its notification (~1 ms) the keys can be stale,
# which costs nothing wrong: the exact stage re-reads each shortlisted row and keeps it only if it
# is still an active memory of the scope (so a deleted or archived memory is never returned), and a
# memory added in that millisecond is found by the next recall.
@dataclass(frozen=True)
class KeyBlock:
    ids: object  # int64[n]
    personas: object  # int64[n], 0 for the profile scope
    keys: object  # float32[n, KEY_DIM]; zeros where the memory has no key
    has_key: object  # bool[n]


_KEY_BLOCK_SQL = f"""
SELECT count(*), string_agg(int8send(id), ''::bytea), string_agg(int8send(COALESCE(persona_id, 0)), ''::bytea),
       string_agg(vector_send(COALESCE(recall_key, %(zero)s::vector)), ''::bytea),
       string_agg(CASE WHEN recall_key IS NULL THEN '\\x00'::bytea ELSE '\\x01'::bytea END, ''::bytea)
FROM (SELECT id, persona_id, recall_key FROM {Memory._meta.db_table} WHERE {{active_owner}} = %(user_id)s ORDER BY id) AS mine
"""


def recall_key_block(*, user_id: int) -> KeyBlock:
    """Every active memory's shortlist key for one user, read in one query (binary, no parsing)."""
    import numpy as np

    with connection.cursor() as cursor:
        cursor.execute(_KEY_BLOCK_SQL.format(active_owner=_ACTIVE_OWNER), {"user_id": user_id, "zero": "[" + ",".join(["0"] * KEY_DIM) + "]"})
        count, ids, personas, keys, has_key = cursor.fetchone()
    if not count:
        empty = np.zeros(0, dtype=np.int64)
        return KeyBlock(ids=empty, personas=empty, keys=np.zeros((0, KEY_DIM), dtype=np.float32), has_key=np.zeros(0, dtype=bool))
    # vector_send: int16 dimensions, int16 unused, then big-endian float4s.
    record = np.dtype([("dim", ">i2"), ("unused", ">i2"), ("v", ">f4", (KEY_DIM,))])
    return KeyBlock(
        ids=np.frombuffer(bytes(ids), dtype=">i8").astype(np.int64),
        personas=np.frombuffer(bytes(personas), dtype=">i8").astype(np.int64),
        keys=np.ascontiguousarray(np.frombuffer(bytes(keys), dtype=record)["v"], dtype=np.float32),
        has_key=np.frombuffer(bytes(has_key), dtype=np.uint8).astype(bool),
    )


def recall_shortlist(block: KeyBlock, *, persona_id: int | None, query_key, exclude_ids, limit: int) -> list[int]:
    """The `limit` best ids of the scope by key · query key, MEMORY.md's ids left out; memories
    without a key last (as the index's NULLs sort last)."""
    import numpy as np

    if not len(block.ids):
        return []
    eligible = (block.personas == 0) | (block.personas == (persona_id or 0))
    if exclude_ids:
        eligible &= ~np.isin(block.ids, np.fromiter((int(i) for i in exclude_ids), dtype=np.int64))
    rows = np.flatnonzero(eligible)
    scores = block.keys[rows] @ np.asarray(query_key, dtype=np.float32)
    scores[~block.has_key[rows]] = -np.inf
    if len(rows) > limit:
        best = np.argpartition(-scores, limit - 1)[:limit]
        rows, scores = rows[best], scores[best]
    return [int(i) for i in block.ids[rows[np.argsort(-scores, kind="stable")]]]


_EXACT_SQL = f"""
SELECT {_EXACT_COLUMNS}
FROM {Memory._meta.db_table} m
WHERE m.id = ANY(%(ids)s::bigint[]) AND {{active_owner}} = %(user_id)s
  AND COALESCE(m.persona_id, 0) IN (0, COALESCE(%(persona_id)s, 0))
"""


def _candidates_from_cached_keys(*, user_id: int, persona_id: int | None, vector, exclude_ids, limit: int) -> list[tuple]:
    block = recall_keys_cached(user_id=user_id, fetch=lambda: recall_key_block(user_id=user_id))
    ids = recall_shortlist(block, persona_id=persona_id, query_key=recall_query_key(vector), exclude_ids=exclude_ids, limit=limit)
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_EXACT_SQL.format(active_owner=_ACTIVE_OWNER),
                       {"vector": _vector_literal(vector), "ids": ids, "user_id": user_id, "persona_id": persona_id})
        return cursor.fetchall()


# --- The projection --------------------------------------------------------------------------
# A ±1 matrix of KEY_DIM rows × EMBEDDING_DIM columns from a fixed integer hash (splitmix64 of
# row·2^32 + column), not from a random generator: stored keys depend on it, so it must never change
# with a library version, and any dimension gets its own matrix without a seed table. The database
# keeps its copy in memory_recall_projection (filled from this function by recall_index_sync for
# the column's dimension); queries are projected here, in NumPy, with the same matrix.
def _splitmix64(values):
    import numpy as np

    with np.errstate(over="ignore"):
        z = values + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


_PROJECTIONS: dict[int, object] = {}


def recall_projection(dimensions: int):
    """The KEY_DIM × dimensions ±1 matrix (float32), cached per dimension."""
    import numpy as np

    matrix = _PROJECTIONS.get(dimensions)
    if matrix is None:
        rows = np.arange(KEY_DIM, dtype=np.uint64)[:, None] << np.uint64(32)
        columns = np.arange(dimensions, dtype=np.uint64)[None, :]
        bits = _splitmix64(rows | columns) >> np.uint64(63)
        matrix = np.where(bits == 1, np.float32(1.0), np.float32(-1.0))
        _PROJECTIONS[dimensions] = matrix
    return matrix


def _unit_projection(vector):
    import numpy as np

    values = np.asarray(vector, dtype=np.float64)
    projected = recall_projection(len(values)).astype(np.float64) @ values
    norm = float(np.linalg.norm(projected))
    return None if norm == 0 else projected / norm


def _clamped_exp(exponent: float) -> float:
    return math.exp(max(-_KEY_EXP_LIMIT, min(_KEY_EXP_LIMIT, exponent)))


def recall_query_key(vector) -> list[float]:
    """The unit projection of the query's embedding (zeros for a zero vector)."""
    import numpy as np

    unit = _unit_projection(vector)
    return (np.zeros(KEY_DIM) if unit is None else unit).tolist()


def recall_memory_key(vector, *, importance: float, confidence: float, last_seen: datetime) -> list[float] | None:
    """The NumPy twin of the database's memory_recall_key() (equal up to float rounding; tested)."""
    if vector is None:
        return None
    unit = _unit_projection(vector)
    if unit is None:
        return None
    prior = (0.5 + 0.5 * importance) * (0.7 + 0.3 * confidence)
    fresh = _clamped_exp(KEY_RECENCY_POWER * (last_seen.timestamp() - KEY_REF_EPOCH) / KEY_TAU_SECONDS)
    return (prior * fresh * unit).tolist()


# --- The key, kept by the database -----------------------------------------------------------
# A trigger, not a GENERATED column: `reembed` resizes the embedding column (ALTER COLUMN TYPE),
# which Postgres refuses for a column a generated column depends on, and a generated column may
# not read the projection table. The trigger recomputes on INSERT and whenever the embedding, a
# factor (importance, confidence, last_seen) or the key itself changes, so Django's save() sending
# a stale key, QuerySet.update(), raw UPDATEs and COPY all end up consistent, while updates of other
# columns (recall stats, scores, status) skip the projection and can stay HOT.
# An embedding whose size differs from the projection's (a half-done `reembed`) gets no key rather
# than failing the write: it sorts last until recall_index_sync() recomputes it.
_TABLE = Memory._meta.db_table
PROJECTION_TABLE = "memory_recall_projection"

_KEY_FUNCTION_SQL = f"""
CREATE OR REPLACE FUNCTION memory_recall_key(v vector, importance double precision, confidence double precision,
                                             last_seen timestamptz) RETURNS vector
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    projected double precision[];
    norm double precision;
    prior double precision;
    fresh double precision;
BEGIN
    IF v IS NULL OR vector_dims(v) IS DISTINCT FROM (SELECT vector_dims(r) FROM {PROJECTION_TABLE} WHERE j = 0) THEN
        RETURN NULL;
    END IF;
    projected := ARRAY(SELECT -(v <#> r) FROM {PROJECTION_TABLE} ORDER BY j);
    norm := sqrt((SELECT sum(x * x) FROM unnest(projected) AS x));
    IF norm = 0 THEN
        RETURN NULL;
    END IF;
    prior := (0.5 + 0.5 * coalesce(importance, 0)) * (0.7 + 0.3 * coalesce(confidence, 0)) / norm;
    fresh := exp(greatest(-{_KEY_EXP_LIMIT}, least({_KEY_EXP_LIMIT},
                 {KEY_RECENCY_POWER} * (date_part('epoch', last_seen) - {KEY_REF_EPOCH}) / {KEY_TAU_SECONDS})));
    RETURN ARRAY(SELECT x * prior * fresh FROM unnest(projected) AS x)::real[]::vector;
END $$
"""

_TRIGGER_SQL = f"""
CREATE OR REPLACE FUNCTION memory_recall_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT'
       OR NEW.embedding IS DISTINCT FROM OLD.embedding OR NEW.importance IS DISTINCT FROM OLD.importance
       OR NEW.confidence IS DISTINCT FROM OLD.confidence OR NEW.last_seen IS DISTINCT FROM OLD.last_seen
       OR NEW.recall_key IS DISTINCT FROM OLD.recall_key THEN
        NEW.recall_key := memory_recall_key(NEW.embedding, NEW.importance, NEW.confidence, NEW.last_seen);
    END IF;
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS memory_recall_key_sync ON {_TABLE};
CREATE TRIGGER memory_recall_key_sync BEFORE INSERT OR UPDATE ON {_TABLE}
    FOR EACH ROW EXECUTE FUNCTION memory_recall_key_sync()
"""


# --- The index the shortlist scans -----------------------------------------------------------
# Why not just `WHERE user_id = … ORDER BY embedding <=> q` on the (user, status, persona) btree?
# A 512-d vector (2 KB) is stored out of line in TOAST, so that plan reads ~4 TOAST buffers per
# memory: ~130 ms for 10k memories. Instead the keys are copied into a covering index and read with
# an index-only scan (no heap, no TOAST; ~300 bytes per memory). The index is keyed on one expression,
# "the owner of an active memory" (CASE WHEN status = 'active' THEN user_id END), and the function's
# conditions are written so that this is the ONLY index that matches them, and seq/bitmap scans are
# off inside the function: the plan cannot drift back to a heap-reading one. That matters where one
# user owns most rows (a small install): without the SET clauses (tried: the function is then inlined
# and planned with the query, 0.3 ms faster on the 1M-row table) the planner picked a seq scan there,
# which deforms every wide heap row to reach the key: 11.4 ms instead of 6.6 ms for 10k memories
# alone in a 10k-row table. The key has KEY_DIM
# dims whatever EMBEDDING_DIM is, so the index fits a btree tuple for every embedding model.
RECALL_INDEX = "memory_recall_key_idx"
_ACTIVE_OWNER = f"(CASE WHEN status = '{Memory.Status.ACTIVE}' THEN user_id END)"
# user_id and status are included although the key already holds them: an index-only scan needs
# every column the query names, and the key expression names both.
_INDEX_COLUMNS = "user_id, status, persona_id, id, recall_key"
_INDEX_SQL = f"CREATE INDEX {RECALL_INDEX} ON {_TABLE} ({_ACTIVE_OWNER}) INCLUDE ({_INDEX_COLUMNS})"
# `<#>` is the NEGATIVE inner product: ascending order = best first, rows without a key last.
_FUNCTION_SQL = f"""
DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer);
DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, integer);
CREATE FUNCTION memory_recall_shortlist(
    p_user_id bigint, p_persona_id bigint, p_key vector, p_limit integer
) RETURNS TABLE (memory_id bigint)
LANGUAGE sql STABLE ROWS {COARSE_CANDIDATES} SET enable_seqscan = off SET enable_bitmapscan = off
AS $$
    SELECT id
    FROM {_TABLE}
    WHERE {_ACTIVE_OWNER} = p_user_id
      AND COALESCE(persona_id, 0) IN (0, COALESCE(p_persona_id, 0))
    ORDER BY recall_key <#> p_key
    LIMIT p_limit
$$
"""

# What earlier versions installed (migration 0004's 64-dim coarse vector).
_LEGACY_SQL = f"""
DROP TRIGGER IF EXISTS memory_embedding_coarse_sync ON {_TABLE};
DROP FUNCTION IF EXISTS memory_embedding_coarse_sync();
DROP INDEX IF EXISTS memory_recall_cover_idx;
DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer, timestamptz, double precision);
DROP FUNCTION IF EXISTS memory_embedding_coarse(vector)
"""


def embedding_column_dimensions(model, *, cursor=None) -> int | None:
    """The dimension the model's `embedding` column really has (None when unconstrained)."""
    if cursor is None:
        with connection.cursor() as cursor:
            return embedding_column_dimensions(model, cursor=cursor)
    cursor.execute(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'embedding'",
        [model._meta.db_table],
    )
    row = cursor.fetchone()
    return row[0] if row and row[0] > 0 else None


# The exact stage reads COARSE_CANDIDATES full embeddings by primary key. A 512-d vector is 2,056
# bytes, just over the 2 KB at which Postgres moves a value out of line by default, so each of those
# reads went through the TOAST index and two TOAST chunks. Stored MAIN (inline while the row fits a
# page: up to ~1,900 dims) it is read with its row: 200 lookups went from 2.8 to 1.6 ms (p50, the
# user's 10k rows). toast_tuple_target at the page size keeps Postgres from trying (and failing) to
# compress every embedding on write. ALTER COLUMN TYPE (reembed) resets the storage to the type's
# default, so this is re-applied here; existing rows move inline when rewritten (migration 0008).
_INLINE_SQL = f"""
ALTER TABLE {_TABLE} ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE {_TABLE} SET (toast_tuple_target = 8160)
"""


def recall_index_sync(*, schema_editor=None) -> bool:
    """Install the projection for the embedding column's size, the key function, its trigger, the
    covering index and the shortlist function; keep embeddings stored inline; recompute keys that
    are missing or stale.

    Idempotent. Called by migration 0006 and by `reembed` after resizing the vector column (an ALTER
    COLUMN TYPE rewrite fires no trigger). Returns True when the projection was (re)built.
    """
    rebuilt = False
    with (schema_editor.connection if schema_editor else connection).cursor() as cursor:
        cursor.execute(_LEGACY_SQL)
        cursor.execute(
            "SELECT attstorage = 'm' AND %s = ANY(coalesce(reloptions, '{}')) FROM pg_attribute JOIN pg_class "
            "ON pg_class.oid = attrelid WHERE attrelid = %s::regclass AND attname = 'embedding'",
            ["toast_tuple_target=8160", _TABLE],
        )
        if not cursor.fetchone()[0]:
            cursor.execute(_INLINE_SQL)
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {PROJECTION_TABLE} (j integer PRIMARY KEY, r vector NOT NULL)")
        # 1536- or 3072-dim rows (6-12 KB) stay in the page where they fit: no TOAST lookup per row.
        cursor.execute(f"ALTER TABLE {PROJECTION_TABLE} ALTER COLUMN r SET STORAGE MAIN")
        cursor.execute(f"ALTER TABLE {PROJECTION_TABLE} SET (toast_tuple_target = 8160)")
        dimensions = embedding_column_dimensions(Memory, cursor=cursor)
        cursor.execute(f"SELECT count(*), min(vector_dims(r)), max(vector_dims(r)) FROM {PROJECTION_TABLE}")
        count, low, high = cursor.fetchone()
        if dimensions and (count != KEY_DIM or low != dimensions or high != dimensions):
            matrix = recall_projection(dimensions)
            cursor.execute(f"DELETE FROM {PROJECTION_TABLE}")
            cursor.executemany(
                f"INSERT INTO {PROJECTION_TABLE} (j, r) VALUES (%s, %s::vector)",
                [(j, "[" + ",".join("1" if x > 0 else "-1" for x in row) + "]") for j, row in enumerate(matrix)],
            )
            rebuilt = True
        cursor.execute(_KEY_FUNCTION_SQL)
        cursor.execute(_TRIGGER_SQL)
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [RECALL_INDEX])
        row = cursor.fetchone()
        if row and f"INCLUDE ({_INDEX_COLUMNS})" not in row[0]:
            cursor.execute(f"DROP INDEX {RECALL_INDEX}")
            row = None
        if row is None:
            cursor.execute(_INDEX_SQL)
        cursor.execute(_FUNCTION_SQL)
        if rebuilt:  # every key was made with another matrix (or none)
            cursor.execute(f"UPDATE {_TABLE} SET recall_key = memory_recall_key(embedding, importance, confidence, last_seen)")
        else:
            cursor.execute(f"UPDATE {_TABLE} SET recall_key = NULL WHERE embedding IS NULL AND recall_key IS NOT NULL")
    return rebuilt



# One round trip before any work: is memory on, and which ids does the scope's MEMORY.md hold?
_GATE_SQL = f"""
SELECT NOT EXISTS (SELECT 1 FROM {MemorySettings._meta.db_table} WHERE user_id = %(user_id)s AND NOT enabled),
       (SELECT memory_ids FROM {MemoryDocument._meta.db_table}
        WHERE user_id = %(user_id)s AND persona_id IS NOT DISTINCT FROM %(persona_id)s)
"""


def _recall_gate(*, user_id: int, persona_id: int | None) -> tuple[bool, list[int]]:
    with connection.cursor() as cursor:
        cursor.execute(_GATE_SQL, {"user_id": user_id, "persona_id": persona_id})
        enabled, memory_ids = cursor.fetchone()
    if isinstance(memory_ids, str):  # Django hands jsonb back undecoded
        memory_ids = json.loads(memory_ids)
    return enabled, [int(i) for i in memory_ids or []]


# The top k's sources, and (unless record=False) the recall stats update, in ONE round trip: the
# UPDATE rides along as a data-modifying CTE, which Postgres runs to completion even though the
# SELECT does not read it.
_SOURCES_SQL = f"""
{{record}}SELECT s.memory_id, s.quote, s.said_at, msg.external_id, ses.external_id
FROM {MemorySource._meta.db_table} s
LEFT JOIN {Message._meta.db_table} msg ON msg.id = s.message_id
LEFT JOIN {ChatSession._meta.db_table} ses ON ses.id = msg.session_id
WHERE s.memory_id = ANY(%(ids)s::bigint[])
ORDER BY s.said_at, s.id
"""


def _sources_for(ids: list[int], *, record_at: datetime | None = None) -> dict[int, list[dict]]:
    sources: dict[int, list[dict]] = {memory_id: [] for memory_id in ids}
    record = "" if record_at is None else "WITH recorded AS (" + _record_sql() + " RETURNING 1)\n"
    params = {"ids": [int(i) for i in ids], "now": record_at}
    try:
        with connection.cursor() as cursor:
            cursor.execute(_SOURCES_SQL.format(record=record), params)
            rows = cursor.fetchall()
    except IntegrityError:
        # A memory deleted (hard delete) between ranking and recording: its stats row would point
        # at nothing. The answer matters more than the bookkeeping, so answer without recording.
        # (Inside a caller's transaction the error is the caller's to handle.)
        if not record or connection.in_atomic_block:
            raise
        with connection.cursor() as cursor:
            cursor.execute(_SOURCES_SQL.format(record=""), params)
            rows = cursor.fetchall()
    for memory_id, quote, said_at, message_external_id, session_external_id in rows:
        if len(sources[memory_id]) < Memory.MAX_SOURCES:
            sources[memory_id].append(
                {
                    "session_external_id": session_external_id or "",
                    "message_external_id": message_external_id or "",
                    "quote": quote,
                    "said_at": said_at.isoformat(),
                }
            )
    return sources


def recall(
    *,
    user: AbstractBaseUser,
    query: str,
    k: int = 10,
    persona: Persona | None = None,
    exclude_ids: list[int] | set[int] | None = None,
    now: datetime | None = None,
    embedder: Embedder | None = None,
    record: bool = True,
) -> list[RecallResult]:
    """Global top-k memories for `query` in the user's scope (profile + persona).

    1. Nothing for an empty query or a user with memory off (the scope's cached MEMORY.md says
       both; without one, one query that also reads its ids).
    2. Exclude what MEMORY.md already holds (unless `exclude_ids` is given).
    3. Shortlist COARSE_CANDIDATES memories by the key (projected similarity × the score's factors):
       from the user's keys held by the process when the cache is usable (read once, then kept
       until a change of the user's memories is notified), else by an index-only scan of this
       user's rows; fetch them with their exact full-embedding distance (one query).
    4. Score the shortlist exactly in Python: similarity, keyword match, recency, importance,
       confidence; load sources for the top k only and record the recall unless `record=False`
       (one query).
    """
    query = (query or "").strip()
    k = max(1, min(int(k), RECALL_MAX_K))
    if not query:
        return []
    persona_id = persona.pk if persona else None
    # The scope's MEMORY.md from the process's cache (no query once cached): a document is only
    # served while memory is on. Without one (never rendered, memory off) or without the cache
    # (MEMORY_MD_CACHE off, inside a transaction), one query answers both.
    document = memory_md_get(user=user, persona=persona) if memory_md_cache_usable() else None
    if document is not None:
        enabled, memory_md_ids = True, document.memory_ids
    else:
        enabled, memory_md_ids = _recall_gate(user_id=user.pk, persona_id=persona_id)
    if not enabled:
        return []
    now = now or timezone.now()
    if exclude_ids is None:
        exclude_ids = memory_md_ids
    embedder = embedder or get_embedder()
    # ctx: a remote embedder records the call (LLMCall, phase "recall"); the local one records nothing.
    vector = embedder.embed([query], kind="query", ctx=CallContext(user_id=user.pk, phase=Phase.RECALL))[0]

    keywords = query_keywords(query)
    total_weight = sum(weight for _, weight in keywords)
    now_epoch, tau_seconds = now.timestamp(), settings.RECALL_TAU_WEEKS * 7 * 86400
    scored: list[tuple[float, int, tuple, dict]] = []
    for row in recall_candidates(user_id=user.pk, persona_id=persona_id, vector=vector, exclude_ids=list(exclude_ids)):
        memory_id, statement, _, importance, confidence, last_seen, distance = row
        text_match = None
        if keywords:
            lowered = statement.lower()
            text_match = sum(weight for keyword, weight in keywords if keyword in lowered) / total_weight
        parts = {
            "similarity": 0.0 if distance is None else min(1.0, max(0.0, 1.0 - distance)),
            "text_match": text_match,
            "recency": math.exp(-max(0.0, now_epoch - last_seen) / tau_seconds),
            "importance": importance,
            "confidence": confidence,
        }
        scored.append((recall_score(parts), memory_id, row, parts))
    scored.sort(key=lambda item: (-item[0], item[1]))
    top = [
        RecallResult(
            id=memory_id, statement=row[1], category=row[2], score=round(score, 6),
            parts={name: round(value or 0.0, 4) for name, value in parts.items()},
        )
        for score, memory_id, row, parts in scored[:k]
    ]
    if not top:
        return []

    sources = _sources_for([result.id for result in top], record_at=now if record else None)
    for result in top:
        result.sources = sources[result.id]
    return top


# Recall stats are bookkeeping: losing the last few on a crash is fine, waiting for the WAL flush
# on every recall is not. set_config(..., true) turns synchronous_commit off for the statement's
# own (autocommit) transaction (measured here: p95 3.9 ms → 1.6 ms). Inside a caller's
# transaction it would relax the caller's commit too, so there the plain statement runs.
# They live in MemoryRecall, not in the memory rows: see that model for why.
_RECORD_SQL = f"""
INSERT INTO {MemoryRecall._meta.db_table} (memory_id, count, last_recalled_at)
SELECT m.id, 1, %(now)s FROM {Memory._meta.db_table} m{{relaxed}}
WHERE m.id = ANY(%(ids)s::bigint[])
ON CONFLICT (memory_id) DO UPDATE
SET count = {MemoryRecall._meta.db_table}.count + 1, last_recalled_at = EXCLUDED.last_recalled_at
"""


def _record_sql() -> str:
    relaxed = "" if connection.in_atomic_block else ", (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed"
    return _RECORD_SQL.format(relaxed=relaxed).strip()


def recall_record(*, ids: list[int], now: datetime) -> int:
    """The recall stats upsert on its own (recall() sends it together with the sources query)."""
    with connection.cursor() as cursor:
        cursor.execute(_record_sql(), {"now": now, "ids": [int(i) for i in ids]})
        return cursor.rowcount
