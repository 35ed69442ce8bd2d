"""Recall: the long tail of memory that does not fit in MEMORY.md, fetched on demand.

Two kinds of results, ranked together (see docs/context.md):
- memories (what dreaming learned), ranked by the score below;
- excerpts of the user's own past turns (dreaming/memory/excerpts.py), ranked by full-text search.
The two rankings are fused by weighted reciprocal rank (RRF): an item at rank r (from 1) of its
list scores weight / (RRF_K + r); an excerpt a memory was learned from may also get that memory's
vector rank (EXCERPT_VECTOR_WEIGHT, 0: it measured no gain on LoCoMo's tuning half). A memory and
the excerpt it came from are never both returned.

Memory ranking:

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
from dataclasses import asdict, dataclass, field
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
import psycopg
from django.db import IntegrityError, connection
from django.utils import timezone

from chat.models import ChatSession, Message, Persona
from dreaming.memory.context import memory_md_cache_usable, memory_md_get
from dreaming.memory.context_cache import recall_held_cached
from dreaming.memory.excerpts import EXCERPT_SEARCH, Excerpt, excerpt_search, excerpts_found
from dreaming.memory.prepared import Prepared, prepared_ahead_usable, prepared_run, prepared_send
from dreaming.memory.recall_keywords import query_keywords
from dreaming.memory.recall_held import (  # noqa: F401 — TEXT_WEIGHT re-exported
    TEXT_WEIGHT, held_cosines, held_memories_read, held_ranking, memory_score,
)
from dreaming.memory.recall_key import ACTIVE_OWNER, COARSE_CANDIDATES, recall_query_key
from dreaming.memory.recall_stats import recall_record_params, recall_record_sql, recall_stats_deferred, recall_stats_note
from dreaming.models import Memory, MemoryDocument, MemorySettings, MemorySource, Phase
from dreaming.protocol import RECALL_MAX_K, RECALL_TOOL  # noqa: F401 — re-exported for the API and command
from dreaming.providers.embedding_space import embedding_space_check_cached
from dreaming.providers import CallContext, Embedder, get_embedder

# Fusion (tuned on the tuning half of the LoCoMo dev conversations, bench/quality_locomo.py).
RRF_K = 5.0
MEMORY_WEIGHT = 1.0
EXCERPT_WEIGHT = 3.0
EXCERPT_VECTOR_WEIGHT = 0.0
# An excerpt whose memory MEMORY.md already shows says nothing new to the model.
SKIP_EXCERPTS_OF_MEMORY_MD = True
# Excerpts found and worded per recall beyond k: room for the ones fusion skips (of a memory already
# taken or shown by MEMORY.md). Each costs its sensitivity check and wording; more than k + 10 never
# changed a result on LoCoMo's tuning half.
EXCERPTS_BEYOND_K = 10


def excerpts_wanted(k: int) -> int:
    return k + EXCERPTS_BEYOND_K


@dataclass
class RecallResult:
    """One result. `statement` is exactly what the model reads for it; `id` is the memory's id, or
    for an excerpt the message's; `category` is "excerpt" for an excerpt."""

    id: int
    statement: str
    category: str
    score: float
    kind: str = "memory"  # "memory" | "excerpt"
    parts: dict = field(default_factory=dict)
    sources: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class SentAlong:
    """A statement recall sends with the re-read of its held memories — the excerpt search (ahead of the ranking
    when prepared_send() can), the sources of the re-read memories (`reads_ids`) — and its rows once it ran."""

    sql: str
    params: dict
    prepared: Prepared | None = None  # the same statement, prepared on the connection (the held path)
    reads_ids: bool = False  # reads the re-read's `ids` (the sources): sent after the ranking
    rows: list[tuple] | None = None

    def run(self) -> list[tuple]:
        """Its rows; on its own when it did not ride along (the index path, nothing to re-read)."""
        if self.rows is None:
            with connection.cursor() as cursor:
                cursor.execute(self.sql, self.params)
                self.rows = cursor.fetchall()
        return self.rows


# --- The ranking ---------------------------------------------------------------------------
def recall_score(parts: dict) -> float:
    """parts: similarity, text_match (None = the query had no keywords), recency, importance, confidence."""
    return memory_score(**parts)


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


# Rows the exact ranking over held memories hands on. recall() asks for 3k + EXCERPTS_BEYOND_K: fusion
# skips a memory only when an excerpt it came from was taken (at most k excerpts, usually one memory
# each), so the top k reaches past rank 2k only when those excerpts each came from several memories.
HELD_EXACT_ROWS = 3 * RECALL_MAX_K + EXCERPTS_BEYOND_K


def _vector_literal(values) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in values) + "]"


def recall_candidates(
    *, user_id: int, persona_id: int | None, vector: list[float], exclude_ids: list[int], limit: int | None = None,
    wanted: int = HELD_EXACT_ROWS, keywords: list[tuple[str, float]] | None = None, now: datetime | None = None,
    cached: bool | None = None, along: list[SentAlong] | None = None,
) -> list[tuple]:
    """The rows to score, with their EXACT cosine distance (last column).

    With the process cache usable (`cached` None = decide here): the `wanted` best by the exact score, ranked over the user's memories held by the process
    (dreaming/memory/recall_held.py). Otherwise the COARSE_CANDIDATES (or `limit`) best by the
    shortlist key, from the index-only scan in the database (approximate: docs/context.md).
    """
    if cached if cached is not None else memory_md_cache_usable():
        held = recall_held_cached(user_id=user_id, fetch=lambda: held_memories_read(user_id=user_id, dimensions=len(vector)))
        if held.dimensions == len(vector):  # else a `reembed` is half done: the database knows better
            return _candidates_from_held(held, user_id=user_id, persona_id=persona_id, vector=vector,
                                         exclude_ids=exclude_ids, keywords=keywords, now=now or timezone.now(),
                                         limit=wanted, along=along)
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


# --- The ranking over the memories held by the process -----------------------------------------
# The index-only scan above reads and sorts 10k tuples per query and only estimates the score. A
# process that serves recall holds each user's memories instead (recall_held.py: ~25 MB for 10k
# 512-d memories, bounded by RECALL_CACHE_MB and RECALL_KEY_CACHE_SIZE) and ranks them exactly in
# NumPy. They stay correct the way MEMORY.md's cache does: the memory table notifies the user's id
# on every insert, delete and change of owner, status, persona or key — the key changes with the
# embedding, importance, confidence and last_seen (migration 0009) — and the process's listener
# drops that user's memories; a read that raced a notification is not stored. Between a commit and
# its notification (~1 ms) they can be stale, which costs nothing wrong: the rows ranked first are
# re-read here and kept only if still an active memory of the scope (a deleted or archived memory
# is never returned), and scored again from what is read; a memory added in that millisecond is
# found by the next recall. (A statement edited without a new embedding notifies nothing: it is
# ranked by its old words until the next change, and shown and scored with its new ones.)
# The cosine of a re-read row comes from the held embedding (the one it was ranked by: a new embedding
# notifies, like any change of the key), not from pgvector: sending the query's 512 floats as text
# and parsing them back cost more than the 40 distances.
_EXACT_SQL = f"""
SELECT m.id, m.statement, m.category, m.importance, m.confidence, EXTRACT(EPOCH FROM m.last_seen)::float8
FROM {Memory._meta.db_table} m
WHERE m.id = ANY(%(ids)s::bigint[]) AND {{active_owner}} = %(user_id)s
  AND COALESCE(m.persona_id, 0) IN (0, COALESCE(%(persona_id)s, 0))
"""


_EXACT_READ = Prepared("recall_held_read", _EXACT_SQL.format(active_owner=ACTIVE_OWNER), types=(
    ("ids", "bigint[]"), ("user_id", "bigint"), ("persona_id", "bigint")))


def _candidates_from_held(held, *, user_id: int, persona_id: int | None, vector, exclude_ids, keywords, now: datetime,
                          limit: int, along: list[SentAlong] | None = None) -> list[tuple]:
    def ranked() -> list[int]:
        return held_ranking(held, persona_id=persona_id, vector=vector, keywords=keywords or [], exclude_ids=exclude_ids,
                            now_epoch=now.timestamp(), tau_seconds=settings.RECALL_TAU_WEEKS * 7 * 86400, limit=limit)

    # Sent ahead only when something does not wait for the ranking (a recall without an excerpt search has no such).
    if any(not s.reads_ids for s in along or []) and all(s.prepared for s in along) and prepared_ahead_usable():
        ids, rows = _ranked_while_searching(ranked, user_id=user_id, persona_id=persona_id, along=along)
    else:
        ids = ranked()
        rows = _held_rows_read(ids, user_id=user_id, persona_id=persona_id, along=along) if ids else []
    if not ids:
        return []
    distance = dict(zip(ids, 1.0 - held_cosines(held, ids=ids, vector=vector)))
    return [(*row, float(distance[row[0]])) for row in rows]


def _ranked_while_searching(ranked, *, user_id: int, persona_id: int | None,
                            along: list[SentAlong]) -> tuple[list[int], list[tuple]]:
    """The held ranking made while the server runs the statements that do not need it (the excerpt
    search: ~3.5 ms of the server's CPU at the issue's size, the ranking ~2 ms of this process's; the
    machine has more than one core), then the re-read of the ranked ids with the statements that read
    them (the sources). Two round trips, the first one hidden behind the ranking; each statement
    prepared, on its generic plan (prepared.py)."""
    ahead = [statement for statement in along if not statement.reads_ids]
    behind = [statement for statement in along if statement.reads_ids]
    with prepared_send([s.prepared for s in ahead], _params_of(ahead)) as cursor:
        ids = ranked()
        for statement in ahead:
            statement.rows = cursor.fetchall()
            cursor.nextset()
    rows = _held_rows_read(ids, user_id=user_id, persona_id=persona_id, along=behind, prepared=True) if ids else []
    return ids, rows


def _params_of(statements: list[SentAlong]) -> dict:
    return {name: value for statement in statements for name, value in statement.params.items()}


def _held_rows_read(ids: list[int], *, user_id: int, persona_id: int | None, along: list[SentAlong] | None,
                    prepared: bool = False) -> list[tuple]:
    """The re-read of the ranked ids, with `along` in the same round trip when it can ride; `prepared`:
    the statements are prepared (and the connection can: prepared_ahead_usable)."""
    along = along or []
    # The ids as one array literal: psycopg adapts a list of ints element by element.
    params = {"ids": "{" + ",".join(map(str, ids)) + "}", "user_id": user_id, "persona_id": persona_id}
    with connection.cursor() as cursor:
        # Client-side binding (Django's default with psycopg 3) sends several statements as one
        # query, one result each: under load every round trip waits for the server to be scheduled.
        rides = prepared or (bool(along) and isinstance(cursor.cursor, psycopg.ClientCursor))
        sent = {**_params_of(along), **params}
        if prepared or (rides and settings.RECALL_PREPARED_STATEMENTS and all(s.prepared for s in along)):
            prepared_run(cursor, [_EXACT_READ] + [statement.prepared for statement in along], sent)
        elif rides:
            cursor.execute(";\n".join([_EXACT_READ.sql] + [statement.sql for statement in along]), sent)
        else:
            cursor.execute(_EXACT_READ.sql, params)  # `along` runs on its own (SentAlong.run)
        rows = cursor.fetchall()
        for statement in along if rides else []:
            cursor.nextset()
            statement.rows = cursor.fetchall()
    return rows


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


# The memories' sources. Sent with the re-read of the held memories, for all of them (the 3k + 10
# re-read: the top k is among them), when the stats are not written with the recall; else for the
# top k, with the stats upsert as a data-modifying CTE (one round trip for both), which Postgres runs
# to completion even though the SELECT does not read it.
_SOURCES_SQL = f"""
{{record}}SELECT s.memory_id, s.quote, s.said_at, msg.external_id, ses.external_id
FROM {MemorySource._meta.db_table} s
LEFT JOIN {Message._meta.db_table} msg ON msg.id = s.message_id
LEFT JOIN {ChatSession._meta.db_table} ses ON ses.id = msg.session_id
WHERE s.memory_id = ANY(%(ids)s::bigint[])
ORDER BY s.said_at, s.id
"""


_SOURCES_READ = Prepared("recall_sources_read", _SOURCES_SQL.format(record=""), types=(("ids", "bigint[]"),))


def _sources_for(ids: list[int], *, record_at: datetime | None = None) -> dict[int, list[dict]]:
    record = "" if record_at is None else "WITH recorded AS (" + recall_record_sql() + " RETURNING 1)\n"
    params = {"ids": [int(i) for i in ids]}
    if record_at is not None:
        params = {**recall_record_params(ids=ids, now=record_at), **params}
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
    return _sources_from_rows(ids, rows)


def _sources_from_rows(ids: list[int], rows: list[tuple]) -> dict[int, list[dict]]:
    sources: dict[int, list[dict]] = {memory_id: [] for memory_id in ids}
    for memory_id, quote, said_at, message_external_id, session_external_id in rows:
        if memory_id in sources and len(sources[memory_id]) < Memory.MAX_SOURCES:
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
    """Global top-k memories and excerpts for `query` in the user's scope (profile + persona).

    1. Nothing for an empty query or a user with memory off (the scope's cached MEMORY.md says
       both; without one, one query that also reads its ids).
    2. Exclude what MEMORY.md already holds (unless `exclude_ids` is given).
    3. When the cache is usable: rank the user's memories held by the process (read once, then
       kept until a change of the user's memories is notified) by the exact score, and re-read the
       3k + 10 best (one query; their cosine from the held embeddings). Otherwise: the
       COARSE_CANDIDATES best by the database's shortlist key (an index-only scan; approximate),
       read with their pgvector distance.
    4. Score those rows exactly in Python: similarity, keyword match, recency, importance,
       confidence.
    5. Find the best excerpts of the user's own turns by full-text search, minus the forgotten and the
       sensitive (excerpts.py: one statement, sent before step 3's ranking and run by the server meanwhile,
       or with step 3's re-read; a second query only for turns indexed before their forgetting digests).
    6. Fuse both rankings (recall_fuse) and record the recall of the memories kept unless `record=False`:
       noted for the process's flusher outside a transaction, their sources read with step 3's re-read (a
       warm recall is TWO queries: the search, then the re-read with the sources); inside one, written
       with the query that loads their sources (dreaming/memory/recall_stats.py).
    """
    query = (query or "").strip()
    k = max(1, min(int(k), RECALL_MAX_K))
    memory_md_ids = _memory_md_ids_if_on(user=user, persona=persona) if query else None
    if memory_md_ids is None:
        return []
    persona_id = persona.pk if persona else None
    now = now or timezone.now()
    if exclude_ids is None:
        exclude_ids = memory_md_ids
    embedding_space_check_cached()  # a query embedded by another model would find nonsense
    embedder = embedder or get_embedder()
    # ctx: a remote embedder records the call (LLMCall, phase "recall"); the local one records nothing.
    vector = embedder.embed([query], kind="query", ctx=CallContext(user_id=user.pk, phase=Phase.RECALL))[0]

    search = excerpt_search(user_id=user.pk, persona_id=persona_id, query=query, limit=excerpts_wanted(k))
    along = [SentAlong(*search, prepared=EXCERPT_SEARCH)] if search else []
    # The stats: noted for the process's flusher (recall_stats.py), or written with the sources.
    record_inline = record and not recall_stats_deferred()
    sources_along = SentAlong(_SOURCES_READ.sql, {}, prepared=_SOURCES_READ, reads_ids=True)
    memories = _memories_ranked(user_id=user.pk, persona_id=persona_id, query=query, vector=vector,
                                exclude_ids=list(exclude_ids), now=now, wanted=3 * k + EXCERPTS_BEYOND_K,
                                along=along if record_inline else [*along, sources_along])
    excerpts = excerpts_found(rows=along[0].run(), user_id=user.pk, query=query) if along else []
    # What the model already has (MEMORY.md, unless the caller says otherwise) is not shown again as an excerpt either.
    top = recall_fuse(memories=memories, excerpts=excerpts, k=k, memory_md_ids=set(exclude_ids))
    _sources_attach(top, rows=sources_along.rows, now=now, record=record, record_inline=record_inline)
    return top


def _sources_attach(top: list[RecallResult], *, rows: list[tuple] | None, now: datetime, record: bool,
                    record_inline: bool) -> None:
    """The kept memories' sources — read with the re-read (`rows`), or now (the index path, or with
    the stats upsert when `record_inline`) — and their recall noted for the flusher otherwise."""
    memory_ids = [result.id for result in top if result.kind == "memory"]
    if not memory_ids:
        return
    if rows is not None:
        sources = _sources_from_rows(memory_ids, rows)
    else:
        sources = _sources_for(memory_ids, record_at=now if record_inline else None)
    if record and not record_inline:
        recall_stats_note(ids=memory_ids, now=now)
    for result in top:
        if result.kind == "memory":
            result.sources = sources[result.id]


def _memory_md_ids_if_on(*, user: AbstractBaseUser, persona: Persona | None) -> list[int] | None:
    """The ids the scope's MEMORY.md shows, or None when the user's memory is off.

    From the process's cache when usable (no query once cached: a document is only served while
    memory is on); without one (never rendered, memory off) or without the cache (MEMORY_MD_CACHE
    off, inside a transaction), one query answers both."""
    document = memory_md_get(user=user, persona=persona) if memory_md_cache_usable() else None
    if document is not None:
        return document.memory_ids
    enabled, memory_md_ids = _recall_gate(user_id=user.pk, persona_id=persona.pk if persona else None)
    return memory_md_ids if enabled else None


def _memories_ranked(*, user_id: int, persona_id: int | None, query: str, vector, exclude_ids: list[int],
                     now: datetime, wanted: int = HELD_EXACT_ROWS,
                     along: list[SentAlong] | None = None) -> list[RecallResult]:
    """The candidates scored exactly, best first (steps 3-4 of recall())."""
    keywords = query_keywords(query)
    total_weight = sum(weight for _, weight in keywords)
    now_epoch, tau_seconds = now.timestamp(), settings.RECALL_TAU_WEEKS * 7 * 86400
    scored: list[tuple[float, int, tuple, dict]] = []
    for row in recall_candidates(user_id=user_id, persona_id=persona_id, vector=vector, exclude_ids=exclude_ids,
                                 wanted=wanted, keywords=keywords, now=now, along=along):
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
    # The parts are rounded for the results fusion keeps (recall_fuse), not for all 3k + 10 rows.
    return [RecallResult(id=memory_id, statement=row[1], category=row[2], score=round(score, 6), parts=parts)
            for score, memory_id, row, parts in scored]


def _parts_shown(parts: dict) -> dict:
    return {name: round(value or 0.0, 4) for name, value in parts.items()}


def recall_fuse(*, memories: list[RecallResult], excerpts: list[Excerpt], k: int,
                memory_md_ids: set[int] = frozenset()) -> list[RecallResult]:
    """The top k of both lists by weighted reciprocal rank; a memory and the excerpt it came from
    are not both kept (the better placed one is), nor an excerpt of a memory MEMORY.md shows."""
    memory_rank = {m.id: rank for rank, m in enumerate(memories, 1)}
    # (score, kind, id, the memory's result or the excerpt's (excerpt, search position, memory position), memory ids)
    fused: list[tuple[float, int, int, object, set[int]]] = []
    for rank, memory in enumerate(memories, 1):
        fused.append((MEMORY_WEIGHT / (RRF_K + rank), 0, memory.id, memory, {memory.id}))
    for rank, excerpt in enumerate(excerpts, 1):
        learned = set(excerpt.memory_ids)
        if SKIP_EXCERPTS_OF_MEMORY_MD and learned & memory_md_ids:
            continue
        score = EXCERPT_WEIGHT / (RRF_K + rank)
        vector_rank = min((memory_rank[i] for i in learned if i in memory_rank), default=None)
        if vector_rank is not None:
            score += EXCERPT_VECTOR_WEIGHT / (RRF_K + vector_rank)
        fused.append((score, 1, excerpt.message_id, (excerpt, rank, vector_rank), learned))
    fused.sort(key=lambda item: (-item[0], item[1], item[2]))
    top: list[RecallResult] = []
    taken: set[int] = set()  # memory ids returned, as memories or through their excerpt
    for score, kind, _, found, learned in fused:
        if learned & taken:
            continue
        taken |= learned
        result = _excerpt_result(*found) if kind else found
        if not kind:
            result.parts = _parts_shown(result.parts)
        result.score = round(score, 6)
        top.append(result)
        if len(top) == k:
            break
    return top


def _excerpt_result(excerpt: Excerpt, search_position: int, memory_position: int | None) -> RecallResult:
    excerpt = excerpt.worded()
    return RecallResult(
        id=excerpt.message_id, statement=excerpt.statement, category="excerpt", score=0.0, kind="excerpt",
        parts={"text_rank": round(excerpt.rank, 4), "search_position": search_position,
               "memory_position": memory_position or 0},
        sources=[excerpt.source(excerpt.quote)],
    )
