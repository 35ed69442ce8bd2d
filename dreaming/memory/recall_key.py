"""Recall's shortlist key: the maths (NumPy) and the database objects that keep it (SQL).

Each memory carries a small key (`recall_key`, KEY_DIM floats, written only by the database) whose
inner product with the query's key orders memories by an estimate of the full score: the cosine of
fixed ±1 random projections of the two embeddings, times the importance and confidence factors, times
a recency factor that does not depend on the query's time. Without the process's cache, recall keeps
the COARSE_CANDIDATES best and scores only those exactly (dreaming/memory/recall.py); with it, recall
ranks the memories the process holds instead (dreaming/memory/recall_held.py). Why 64 dims, the
measured quality and the design history: docs/context.md ("Index strategy").
"""
from __future__ import annotations

import math
from datetime import datetime

from django.db import connection

from dreaming.models import Memory

# τ₀ and α are fixed because stored keys cannot follow a setting (the exact stage uses
# RECALL_TAU_WEEKS). REF keeps the exponent small: float4 holds e^±80, i.e. last_seen within ±160 τ₀
# of REF; beyond that it is clamped, which only flattens the shortlist's recency.
KEY_DIM = 64
KEY_TAU_SECONDS = 26 * 7 * 86400.0
KEY_RECENCY_POWER = 0.5  # α
KEY_REF_EPOCH = 1735689600.0  # 2025-01-01T00:00:00Z
_KEY_EXP_LIMIT = 80.0
COARSE_CANDIDATES = 200  # rows of the shortlist, scored exactly


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
ACTIVE_OWNER = f"(CASE WHEN status = '{Memory.Status.ACTIVE}' THEN user_id END)"
# user_id and status are included although the key already holds them: an index-only scan needs
# every column the query names, and the key expression names both.
_INDEX_COLUMNS = "user_id, status, persona_id, id, recall_key"
_INDEX_SQL = f"CREATE INDEX {RECALL_INDEX} ON {_TABLE} ({ACTIVE_OWNER}) INCLUDE ({_INDEX_COLUMNS})"
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
    WHERE {ACTIVE_OWNER} = p_user_id
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
