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
from django.db import connection
from django.utils import timezone

from chat.models import Persona
from dreaming.models import Memory, MemoryDocument, MemorySettings, MemorySource, Phase
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
# of index pages per query (~13 ms of Postgres CPU). So each memory also carries a 64-dim coarse
# vector (256 bytes), a fixed linear projection of its embedding computed by the database
# (memory_embedding_coarse). Recall reads the coarse vectors of the user's active memories with an
# index-only scan, keeps the COARSE_CANDIDATES best by "coarse similarity × recency × importance ×
# confidence factors" (the score's own factors: the index holds them, so an important, recent
# memory of moderate similarity is not lost before the exact stage, as it was with a shortlist by
# similarity alone), and only those rows are scored exactly: full-embedding cosine distance (joined
# by primary key) + keyword match + the same factors, in Python. Rows without an embedding sort last.
COARSE_DIM = 64
COARSE_CANDIDATES = 200  # rows of the coarse shortlist, scored exactly

_CANDIDATES_SQL = f"""
SELECT m.id, m.statement, m.category, m.importance, m.confidence, EXTRACT(EPOCH FROM m.last_seen)::float8,
       m.embedding <=> %(vector)s::vector
FROM memory_recall_shortlist(%(user_id)s, %(persona_id)s, %(vector)s::vector, %(exclude)s::bigint[], %(limit)s,
                             %(now)s::timestamptz, %(tau)s::float8) s
JOIN {Memory._meta.db_table} m ON m.id = s.memory_id
"""


def recall_candidates(
    *, user_id: int, persona_id: int | None, vector: list[float], exclude_ids: list[int], now: datetime,
    limit: int | None = None,
) -> list[tuple]:
    """The coarse shortlist's rows (COARSE_CANDIDATES unless `limit`) with their EXACT cosine distance (last column)."""
    params = {
        "now": now,
        "tau": settings.RECALL_TAU_WEEKS * 7 * 86400.0,
        "vector": "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]",
        "user_id": user_id,
        "persona_id": persona_id,
        "exclude": [int(i) for i in exclude_ids],
        "limit": limit or COARSE_CANDIDATES,
    }
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_SQL, params)
        return cursor.fetchall()


# --- The coarse vector ------------------------------------------------------------------------
# coarse[b] = Σ_c sign(c, b) · embedding[64·c + b]: the embedding is cut into chunks of 64 dims
# (the last one zero-padded), each chunk is multiplied element-wise by a fixed ±1 pattern and the
# chunks are summed. Every coordinate of the embedding lands in exactly one coarse coordinate
# with a sign, so this is a sparse random projection (count sketch): dot products are preserved in
# expectation, it works for any EMBEDDING_DIM, and it is only vector arithmetic (~0.15 ms per row
# in plpgsql). The sign pattern of chunk c is the fixed seeded pattern rotated by 37·c, so chunks
# get different signs (one pattern for all chunks would be a rotation of plain sum-pooling).
# The same SQL function computes the query's coarse vector, so stored rows and queries can never
# disagree; coarse_project() is its NumPy twin (bit-for-bit, tested) for scripts and tests.
# The ±1 pattern is written out (drawn once from numpy.random.default_rng(64)): stored coarse
# vectors depend on it, so it must never change with a library version. Changing it (or
# COARSE_DIM) means recomputing every row: UPDATE dreaming_memory SET embedding_coarse = NULL.
_COARSE_SIGNS = "++--+-++---++-+++++++++-+---+-+-+-+---++-+-+--+---++++++-++-+++-"


def _coarse_signs() -> list[int]:
    return [1 if sign == "+" else -1 for sign in _COARSE_SIGNS]


def coarse_project(vector) -> list[float]:
    import numpy as np

    values = np.asarray(vector, dtype=np.float32)
    values = np.concatenate([values, np.zeros((-len(values)) % COARSE_DIM, dtype=np.float32)])
    signs = np.asarray(_coarse_signs() * 2, dtype=np.float32)
    coarse = np.zeros(COARSE_DIM, dtype=np.float32)
    for chunk in range(len(values) // COARSE_DIM):
        rotation = (chunk * 37) % COARSE_DIM
        coarse = coarse + values[chunk * COARSE_DIM : (chunk + 1) * COARSE_DIM] * signs[rotation : rotation + COARSE_DIM]
    return coarse.tolist()


def _coarse_function_sql() -> str:
    signs = "{" + ",".join(str(s) for s in _coarse_signs() * 2) + "}"
    return f"""
CREATE OR REPLACE FUNCTION memory_embedding_coarse(v vector) RETURNS vector
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    a real[] := v::real[];
    n integer := cardinality(a);
    signs real[] := '{signs}';
    coarse vector := array_fill(0::real, ARRAY[{COARSE_DIM}])::vector;
    c integer := 0;
    r integer;
    chunk real[];
BEGIN
    WHILE c * {COARSE_DIM} < n LOOP
        chunk := a[c * {COARSE_DIM} + 1 : (c + 1) * {COARSE_DIM}];
        IF cardinality(chunk) < {COARSE_DIM} THEN
            chunk := chunk || array_fill(0::real, ARRAY[{COARSE_DIM} - cardinality(chunk)]);
        END IF;
        r := (c * 37) % {COARSE_DIM};
        coarse := coarse + chunk::vector * signs[r + 1 : r + {COARSE_DIM}]::vector;
        c := c + 1;
    END LOOP;
    RETURN coarse;
END $$
"""


# A trigger, not a GENERATED column: `reembed` resizes the embedding column (ALTER COLUMN TYPE),
# which Postgres refuses for a column a generated column depends on. The trigger recomputes on
# INSERT and whenever the embedding (or the coarse value itself) changes, so Django's save()
# sending a stale coarse value, QuerySet.update(embedding=...), raw UPDATEs and COPY all end up
# consistent, while updates of other columns (recall stats, scores) skip the projection.
_TRIGGER_SQL = f"""
CREATE OR REPLACE FUNCTION memory_embedding_coarse_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.embedding_coarse := memory_embedding_coarse(NEW.embedding);
    ELSIF NEW.embedding IS DISTINCT FROM OLD.embedding OR NEW.embedding_coarse IS DISTINCT FROM OLD.embedding_coarse THEN
        NEW.embedding_coarse := memory_embedding_coarse(NEW.embedding);
    END IF;
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS memory_embedding_coarse_sync ON {Memory._meta.db_table};
CREATE TRIGGER memory_embedding_coarse_sync BEFORE INSERT OR UPDATE ON {Memory._meta.db_table}
    FOR EACH ROW EXECUTE FUNCTION memory_embedding_coarse_sync()
"""


# --- The index the shortlist scans -----------------------------------------------------------
# Why not just `WHERE user_id = … ORDER BY embedding <=> q` on the (user, status, persona) btree?
# A 512-d vector (2 KB) is stored out of line in TOAST, so that plan reads ~4 TOAST buffers per
# memory: ~130 ms for 10k memories. Instead the coarse vectors are copied into a covering index
# and read with an index-only scan (no heap, no TOAST; ~400 index pages for 10k memories). The
# index is keyed on one expression, "the owner of an active memory" (CASE WHEN status = 'active'
# THEN user_id END), and the function's conditions are written so that this is the ONLY index
# that matches them, and seq/bitmap scans are off inside the function: the plan cannot drift
# back to a heap-reading one. The coarse vector is 64 dims whatever EMBEDDING_DIM is, so the
# index fits a btree tuple for every embedding model.
RECALL_INDEX = "memory_recall_cover_idx"
_TABLE = Memory._meta.db_table
_ACTIVE_OWNER = f"(CASE WHEN status = '{Memory.Status.ACTIVE}' THEN user_id END)"
_INDEX_SQL = (
    f"CREATE INDEX {RECALL_INDEX} ON {_TABLE} ({_ACTIVE_OWNER}) "
    "INCLUDE (user_id, status, persona_id, id, importance, confidence, last_seen, embedding_coarse)"
)
# The key mirrors recall_score() with the coarse similarity in place of the fused one (the keyword
# match needs the statement, which is not in the index). The query's coarse vector and the epoch
# of `now` are scalar subqueries so they are computed once (InitPlans), not per row; exp() is
# floored at e^-700 because Postgres raises an underflow error below that. Everything is float8 on
# purpose: extract() and bare decimal literals are `numeric`, which made this key 10x slower.
_FUNCTION_SQL = f"""
DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer);
CREATE OR REPLACE FUNCTION memory_recall_shortlist(
    p_user_id bigint, p_persona_id bigint, p_vector vector, p_exclude bigint[], p_limit integer,
    p_now timestamptz, p_tau_seconds double precision
) RETURNS TABLE (memory_id bigint, coarse_key double precision)
LANGUAGE sql STABLE ROWS {COARSE_CANDIDATES} SET enable_seqscan = off SET enable_bitmapscan = off
AS $$
    SELECT id,
           (1 - (embedding_coarse <=> (SELECT memory_embedding_coarse(p_vector))))
           * (0.6::float8 + 0.4::float8 * exp(greatest(-700::float8,
                 least(0::float8, date_part('epoch', last_seen) - (SELECT date_part('epoch', p_now))) / p_tau_seconds)))
           * (0.5::float8 + 0.5::float8 * importance) * (0.7::float8 + 0.3::float8 * confidence)
    FROM {_TABLE}
    WHERE {_ACTIVE_OWNER} = p_user_id
      AND COALESCE(persona_id, 0) IN (0, COALESCE(p_persona_id, 0))
      AND NOT (id = ANY(p_exclude))
    ORDER BY 2 DESC NULLS LAST
    LIMIT p_limit
$$
"""


def recall_index_sync(*, schema_editor=None) -> bool:
    """Create the coarse projection, its trigger, the covering index and the shortlist function.

    Idempotent. Called by migration 0004 and by `reembed` after resizing the vector column (an
    ALTER COLUMN TYPE rewrite fires no trigger, so coarse values of emptied embeddings are
    cleared here). Returns True (the covering index is in use; kept for callers).
    """
    with (schema_editor.connection if schema_editor else connection).cursor() as cursor:
        cursor.execute(_coarse_function_sql())
        cursor.execute(_TRIGGER_SQL)
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [RECALL_INDEX])
        row = cursor.fetchone()
        if row and "importance, confidence, last_seen, embedding_coarse" not in row[0]:
            cursor.execute(f"DROP INDEX {RECALL_INDEX}")
            row = None
        if row is None:
            cursor.execute(_INDEX_SQL)
        cursor.execute(_FUNCTION_SQL)
        cursor.execute(f"UPDATE {_TABLE} SET embedding_coarse = NULL WHERE embedding IS NULL AND embedding_coarse IS NOT NULL")
    return True


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


def _sources_for(ids: list[int]) -> dict[int, list[dict]]:
    sources: dict[int, list[dict]] = {memory_id: [] for memory_id in ids}
    rows = (
        MemorySource.objects.filter(memory_id__in=ids)
        .order_by("said_at", "id")
        .values_list("memory_id", "quote", "said_at", "message__external_id", "message__session__external_id")
    )
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

    1. Nothing for an empty query or a user with memory off (one query that also reads the
       scope's MEMORY.md ids).
    2. Exclude what MEMORY.md already holds (unless `exclude_ids` is given).
    3. Shortlist COARSE_CANDIDATES memories by coarse similarity × the score's factors (index-only
       scan of this user's rows) and fetch them with their exact full-embedding distance (one query).
    4. Score the shortlist exactly in Python: similarity, keyword match, recency, importance,
       confidence; load sources for the top k only (one query).
    5. Record the recall (one UPDATE) unless `record=False`.
    """
    query = (query or "").strip()
    k = max(1, min(int(k), RECALL_MAX_K))
    if not query:
        return []
    persona_id = persona.pk if persona else None
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
    for row in recall_candidates(user_id=user.pk, persona_id=persona_id, vector=vector, exclude_ids=list(exclude_ids), now=now):
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

    sources = _sources_for([result.id for result in top])
    for result in top:
        result.sources = sources[result.id]
    if record:
        recall_record(ids=[result.id for result in top], now=now)
    return top


# Recall stats are bookkeeping: losing the last few on a crash is fine, waiting for the WAL flush
# on every recall is not. set_config(..., true) turns synchronous_commit off for the statement's
# own (autocommit) transaction (measured here: p95 3.9 ms → 1.6 ms). Inside a caller's
# transaction it would relax the caller's commit too, so there the plain UPDATE runs.
_RECORD_SQL = f"""
UPDATE {Memory._meta.db_table}
SET recall_count = recall_count + 1, last_recalled_at = %(now)s
{{relaxed}}WHERE id = ANY(%(ids)s::bigint[])
"""


def recall_record(*, ids: list[int], now: datetime) -> int:
    """One UPDATE after ranking: cheap enough to stay in the request (no task queue round trip)."""
    relaxed = "" if connection.in_atomic_block else "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed\n"
    with connection.cursor() as cursor:
        cursor.execute(_RECORD_SQL.format(relaxed=relaxed), {"now": now, "ids": [int(i) for i in ids]})
        return cursor.rowcount
