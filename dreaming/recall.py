"""Recall: the long tail of memory that does not fit in MEMORY.md, fetched on demand.

Ranking (see docs/readme/context.md):

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
CANDIDATES = 100  # nearest rows the database hands back for re-ranking in Python
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


# The shortlist: the user's nearest memories by exact cosine distance, from the SQL function
# memory_recall_shortlist; the outer query joins the heap by primary key for just the shortlist's
# statements. Rows without an embedding sort last (NULL distance).
_CANDIDATES_SQL = f"""
SELECT m.id, m.statement, m.category, m.importance, m.confidence, EXTRACT(EPOCH FROM m.last_seen)::float8, s.distance
FROM memory_recall_shortlist(%(user_id)s, %(persona_id)s, %(vector)s::vector, %(exclude)s::bigint[], %(limit)s) s
JOIN {Memory._meta.db_table} m ON m.id = s.memory_id
"""


def recall_candidates(*, user_id: int, persona_id: int | None, vector: list[float], exclude_ids: list[int], limit: int = CANDIDATES) -> list[tuple]:
    params = {
        "vector": "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]",
        "user_id": user_id,
        "persona_id": persona_id,
        "exclude": [int(i) for i in exclude_ids],
        "limit": limit,
    }
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_SQL, params)
        return cursor.fetchall()


# --- The index the shortlist scans -----------------------------------------------------------
# Why not just `WHERE user_id = … ORDER BY embedding <=> q` on the (user, status, persona) btree?
# A 512-d vector (2 KB) is stored out of line in TOAST, so that plan reads ~4 TOAST buffers per
# memory: ~130 ms for 10k memories. The planner does not count TOAST reads, so it keeps choosing it.
# Instead the vectors are copied into a covering index and read with an index-only scan (no heap,
# no TOAST; ~10x faster). The index is keyed on one expression, "the owner of an active memory"
# (CASE WHEN status = 'active' THEN user_id END), and the function's conditions are written so
# that this is the ONLY index that matches them (no bare user_id / status / persona_id condition
# another index could serve), and seq/bitmap scans are off inside the function: the plan cannot
# drift back to a TOAST-reading one. A btree tuple holds at most 2704 bytes (4 bytes per
# dimension + 8), so this needs ≤ 640 dimensions; above that the function uses the plain btree
# and the heap (correct, slower — see docs/readme/context.md).
RECALL_INDEX = "memory_recall_cover_idx"
RECALL_INDEX_MAX_DIMENSIONS = 640
_TABLE = Memory._meta.db_table
_ACTIVE_OWNER = f"(CASE WHEN status = '{Memory.Status.ACTIVE}' THEN user_id END)"
_INDEX_SQL = f"CREATE INDEX {RECALL_INDEX} ON {_TABLE} ({_ACTIVE_OWNER}) INCLUDE (user_id, status, persona_id, id, embedding)"
_FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION memory_recall_shortlist(
    p_user_id bigint, p_persona_id bigint, p_vector vector, p_exclude bigint[], p_limit integer
) RETURNS TABLE (memory_id bigint, distance double precision)
LANGUAGE sql STABLE ROWS 100 {settings}
AS $$
    SELECT id, embedding <=> p_vector
    FROM {table}
    WHERE {owner_condition}
      AND COALESCE(persona_id, 0) IN (0, COALESCE(p_persona_id, 0))
      AND NOT (id = ANY(p_exclude))
    ORDER BY 2
    LIMIT p_limit
$$
"""


def _embedding_dimensions(cursor) -> int | None:
    cursor.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'embedding'", [_TABLE])
    row = cursor.fetchone()
    return row[0] if row and row[0] > 0 else None


def recall_index_sync(*, schema_editor=None) -> bool:
    """Create (or drop) the covering index and (re)write the shortlist function to match.

    Called by migration 0003 and by `reembed` after resizing the vector column. Returns whether
    the covering index is in use.
    """
    with (schema_editor.connection if schema_editor else connection).cursor() as cursor:
        dimensions = _embedding_dimensions(cursor)
        covered = dimensions is not None and dimensions <= RECALL_INDEX_MAX_DIMENSIONS
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [RECALL_INDEX])
        row = cursor.fetchone()
        if row and not (covered and "CASE WHEN" in row[0]):
            cursor.execute(f"DROP INDEX {RECALL_INDEX}")
            row = None
        if covered:
            if row is None:
                cursor.execute(_INDEX_SQL)
            function = _FUNCTION_SQL.format(
                settings="SET enable_seqscan = off SET enable_bitmapscan = off",
                table=_TABLE, owner_condition=f"{_ACTIVE_OWNER} = p_user_id",
            )
        else:
            function = _FUNCTION_SQL.format(
                settings="", table=_TABLE, owner_condition=f"user_id = p_user_id AND status = '{Memory.Status.ACTIVE}'"
            )
        cursor.execute(function)
    return covered


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
    3. Shortlist the CANDIDATES nearest memories by exact cosine distance (one query, index-only
       scan of this user's rows).
    4. Re-rank the shortlist in Python: keyword match, recency, importance, confidence; load
       sources for the top k only (one query).
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
