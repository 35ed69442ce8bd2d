"""What a process holds of one user's memories for recall, and the ranking it makes exact.

Recall's memory score (dreaming/memory/recall.py) needs, for every memory, the cosine with the
query, the query's keywords found in the statement, and three factors. The database's 64-dim
shortlist key (dreaming/memory/recall_key.py) only estimates the cosine, cannot see the keywords,
and its top 200 held 0.76 of the exact top 10 (10k memories). A process that serves recall keeps,
per user (read once, in one query, then until the memory table notifies a change of that user):
ids, personas, importance, confidence, last_seen, the unit embeddings (float32), and the
statements' words in a small inverted index. A query then:

1. finds the keyword matches of EVERY memory exactly, through the word index (a keyword is made of
   word characters, so it can only occur inside one word of a statement: look it up among the
   user's distinct words, then take those words' rows);
2. estimates every memory's score with the cosine in a BASIS_DIM-dim basis fitted to the user's own
   embeddings (their top principal directions: 0.98 of the exact top 10 within the 200 best, where
   the fixed random projection of the database key reaches 0.77), the exact keyword match and the
   exact factors;
3. scores the RESCORE_ROWS best of that estimate exactly (full embeddings, in memory) and returns
   the best `limit` ids; recall re-reads those rows from the database (fresh, still active, in the
   scope) and scores them once more with pgvector's distance.

With up to RESCORE_ROWS memories in the scope, step 2 is skipped: every memory is scored exactly.
Measured: docs/context.md ("Index strategy"); the ranking's agreement with scoring all memories
exactly is a bench figure (bench/speed_recall.py).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.db import connection
from threadpoolctl import threadpool_limits

from dreaming.memory.recall_key import ACTIVE_OWNER
from dreaming.models import Memory

# The score (docs/context.md, "Memory ranking"): the one formula, for one memory or for arrays.
TEXT_WEIGHT = 0.35


def memory_score(*, similarity, text_match, recency, importance, confidence):
    """fused × (0.6 + 0.4·recency) × (0.5 + 0.5·importance) × (0.7 + 0.3·confidence), where fused is
    the similarity alone when the query has no keywords (text_match None)."""
    return memory_fused(similarity, text_match) * recency_factor(recency) * standing_factor(importance, confidence)


def memory_fused(similarity, text_match):
    return similarity if text_match is None else (1 - TEXT_WEIGHT) * similarity + TEXT_WEIGHT * text_match


def recency_factor(recency):
    return 0.6 + 0.4 * recency


def standing_factor(importance, confidence):
    """The part of the score a query cannot change: held per memory, computed once."""
    return (0.5 + 0.5 * importance) * (0.7 + 0.3 * confidence)


# 500: 0.988 of the exact top 10 on the synthetic 10k (1,000: 0.992; docs/context.md) for half the
# gather and product of full embeddings, the largest part of the ranking's CPU.
RESCORE_ROWS = 500
BASIS_DIM = 64
BASIS_SAMPLE = 2000
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class WordIndex:
    """The distinct words of the user's lowered statements ('\\0'-joined, with their start offsets)
    and, for word w, its rows: rows[offsets[w]:offsets[w + 1]]."""

    text: str
    starts: list[int]
    offsets: np.ndarray  # int64[words + 1]
    rows: np.ndarray  # int32[postings]
    statements: tuple[str, ...]  # lowered; only for a keyword that is not one word (see keyword_match)

    @classmethod
    def build(cls, statements: list[str]) -> WordIndex:
        lowered = tuple(s.lower() for s in statements)
        by_word: dict[str, list[int]] = {}
        for row, statement in enumerate(lowered):
            for word in set(_WORD_RE.findall(statement)):
                by_word.setdefault(word, []).append(row)
        words = list(by_word)
        starts = [0]
        for word in words:
            starts.append(starts[-1] + len(word) + 1)
        sizes = np.fromiter((len(by_word[w]) for w in words), dtype=np.int64, count=len(words))
        offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        rows = np.fromiter((r for w in words for r in by_word[w]), dtype=np.int32, count=int(offsets[-1]))
        return cls(text="\0".join(words), starts=starts, offsets=offsets, rows=rows, statements=lowered)

    def holding(self, keyword: str) -> np.ndarray:
        """bool per row: does its statement hold `keyword` (lowered) as a substring?"""
        hit = np.zeros(len(self.statements), dtype=bool)
        hit[self.rows_holding(keyword)] = True
        return hit

    def rows_holding(self, keyword: str) -> np.ndarray:
        """The rows whose statement holds `keyword` (lowered) as a substring, each once: a rare
        keyword costs its few rows, not an operation over every memory."""
        if not _WORD_RE.fullmatch(keyword):  # not one word (lower() can add a combining mark): scan
            return np.flatnonzero(np.fromiter((keyword in s for s in self.statements), dtype=bool,
                                              count=len(self.statements)))
        found = []
        position = self.text.find(keyword)
        while position != -1:
            word = bisect.bisect_right(self.starts, position) - 1
            found.append(self.rows[self.offsets[word] : self.offsets[word + 1]])
            position = self.text.find(keyword, self.starts[word + 1])
        if len(found) <= 1:  # one word's rows are distinct already
            return found[0] if found else np.empty(0, dtype=np.int32)
        return np.unique(np.concatenate(found))

    @property
    def nbytes(self) -> int:
        return 2 * len(self.text) + 8 * len(self.starts) + self.offsets.nbytes + self.rows.nbytes + sum(
            len(s) for s in self.statements)


@dataclass(frozen=True)
class HeldMemories:
    ids: np.ndarray  # int64[n], ascending
    personas: np.ndarray  # int64[n], 0 for the profile scope
    standing: np.ndarray  # float64[n]: standing_factor(importance, confidence)
    last_seen: np.ndarray  # float64[n], epoch seconds
    vectors: np.ndarray  # float32[n, dimensions], unit length; zeros for a memory without an embedding
    basis: np.ndarray | None  # float32[BASIS_DIM, dimensions]; None when n ≤ RESCORE_ROWS
    keys: np.ndarray | None  # float32[n, BASIS_DIM]: vectors in the basis
    words: WordIndex
    # persona id → bool[n], True for a memory outside that scope (made on first use, then read-only)
    outside_by_persona: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def dimensions(self) -> int:
        return self.vectors.shape[1]

    @property
    def nbytes(self) -> int:
        arrays = (self.ids, self.personas, self.standing, self.last_seen, self.vectors, self.basis, self.keys)
        return sum(a.nbytes for a in arrays if a is not None) + self.words.nbytes + 2 * len(self.ids)

    def outside(self, persona_id: int | None) -> np.ndarray:
        """bool per row: not in the scope (the profile's memories plus the persona's)."""
        mask = self.outside_by_persona.get(persona_id or 0)
        if mask is None:
            mask = (self.personas != 0) & (self.personas != (persona_id or 0))
            mask.flags.writeable = False
            if len(self.outside_by_persona) < 2:  # the profile and one persona: a bounded cache
                self.outside_by_persona[persona_id or 0] = mask
        return mask

    def rows_of(self, ids) -> np.ndarray:
        """The rows of those of these memory ids that are held."""
        wanted = np.fromiter((int(i) for i in ids), dtype=np.int64)
        if not wanted.size or not self.ids.size:
            return np.empty(0, dtype=np.int64)
        rows = np.minimum(np.searchsorted(self.ids, wanted), len(self.ids) - 1)
        return rows[self.ids[rows] == wanted]


# One query, numbers as binary strings (no per-row parsing); rows in id order. An embedding of
# another size than the configured one (a half-done `reembed`) counts as none, as in the key.
_READ_SQL = f"""
SELECT count(*), string_agg(int8send(id), ''::bytea), string_agg(int8send(COALESCE(persona_id, 0)), ''::bytea),
       string_agg(float8send(COALESCE(importance, 0)), ''::bytea), string_agg(float8send(COALESCE(confidence, 0)), ''::bytea),
       string_agg(float8send(EXTRACT(EPOCH FROM last_seen)::float8), ''::bytea), array_agg(statement),
       string_agg(CASE WHEN vector_dims(embedding) = %(dimensions)s THEN '\\x01'::bytea ELSE '\\x00'::bytea END, ''::bytea),
       string_agg(vector_send(embedding), ''::bytea) FILTER (WHERE vector_dims(embedding) = %(dimensions)s)
FROM (SELECT id, persona_id, importance, confidence, last_seen, statement, embedding
      FROM {Memory._meta.db_table} WHERE {ACTIVE_OWNER} = %(user_id)s ORDER BY id) AS mine
"""


def held_memories_read(*, user_id: int, dimensions: int | None = None) -> HeldMemories:
    """Every active memory of the user, as recall ranks them (one query)."""
    dimensions = dimensions or settings.EMBEDDING_DIM
    with connection.cursor() as cursor:
        cursor.execute(_READ_SQL, {"user_id": user_id, "dimensions": dimensions})
        count, ids, personas, importance, confidence, last_seen, statements, has_vector, vectors = cursor.fetchone()
    vectors_out = np.zeros((count, dimensions), dtype=np.float32)
    if count and vectors:
        # vector_send: int16 dimensions, int16 unused, then big-endian float4s.
        record = np.dtype([("dim", ">i2"), ("unused", ">i2"), ("v", ">f4", (dimensions,))])
        vectors_out[np.frombuffer(bytes(has_vector), dtype=np.uint8).astype(bool)] = np.frombuffer(bytes(vectors), dtype=record)["v"]
        norms = np.linalg.norm(vectors_out, axis=1, keepdims=True)
        np.divide(vectors_out, norms, out=vectors_out, where=norms > 0)
    as_array = lambda raw, dtype: np.frombuffer(bytes(raw or b""), dtype=dtype).astype(dtype.lstrip(">"))
    # One BLAS thread: with the cores busy, OpenBLAS's threads spin waiting for each other (the basis
    # of 10k memories took 10.2 s at load 10 on 2 cores, 0.38 s on one thread).
    with threadpool_limits(limits=1, user_api="blas"):
        basis = _principal_basis(vectors_out) if count > RESCORE_ROWS else None
        keys = None if basis is None else vectors_out @ basis.T
    return HeldMemories(
        ids=as_array(ids, ">i8"), personas=as_array(personas, ">i8"),
        standing=standing_factor(as_array(importance, ">f8"), as_array(confidence, ">f8")),
        last_seen=as_array(last_seen, ">f8"), vectors=vectors_out,
        basis=basis, keys=keys, words=WordIndex.build(list(statements or [])),
    )


def _principal_basis(vectors: np.ndarray) -> np.ndarray:
    """The BASIS_DIM directions that keep most of the user's embeddings (uncentred: inner products
    are what is estimated), from an evenly spaced sample, by randomized subspace iteration
    (a fixed seed: the same memories give the same basis)."""
    sample = vectors[:: max(1, len(vectors) // BASIS_SAMPLE)]
    width = min(BASIS_DIM + 16, *sample.shape)
    gaussian = np.random.default_rng(0).standard_normal((vectors.shape[1], width)).astype(np.float32)
    span = sample @ gaussian
    for _ in range(2):
        span = sample @ np.linalg.qr(sample.T @ span)[0]
    directions = np.linalg.qr(sample.T @ span)[0]
    _, _, turn = np.linalg.svd(sample @ directions, full_matrices=False)
    return np.ascontiguousarray((directions @ turn.T[:, :BASIS_DIM]).T, dtype=np.float32)


def keyword_match(words: WordIndex, keywords: list[tuple[str, float]]) -> np.ndarray | None:
    """Every row's weighted share of the keywords found in its statement (None: no keywords)."""
    if not keywords:
        return None
    match = np.zeros(len(words.statements))
    for keyword, weight in keywords:
        match[words.rows_holding(keyword)] += weight
    match /= sum(weight for _, weight in keywords)
    return match


# OpenBLAS runs a matrix-vector product of this size on every core and, when the cores are busy
# (the server's other workers, other processes), spins waiting for them: 10k × 64 took 1.3 ms of CPU
# and 6 ms of wall time at load 11 on 2 cores, against 0.13 / 0.6 ms in blocks small enough for
# one thread.
_BLOCK_VALUES = 1 << 16


def _product(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    step = max(1, _BLOCK_VALUES // max(1, matrix.shape[1]))
    if len(matrix) <= step:
        return matrix @ vector
    return np.concatenate([matrix[i : i + step] @ vector for i in range(0, len(matrix), step)])


def held_ranking(held: HeldMemories, *, persona_id: int | None, vector, keywords: list[tuple[str, float]],
                 exclude_ids, now_epoch: float, tau_seconds: float, limit: int) -> list[int]:
    """The ids of the `limit` best memories of the scope by the memory score, best first.

    Whole-array operations, few of them (the standing factor is held, the scope's mask cached, the
    excluded ids found by binary search), no copy of the held arrays but the RESCORE_ROWS
    embeddings scored exactly (a gather of 10k keys per query cost more than the product itself)."""
    outside = held.outside(persona_id)
    excluded = held.rows_of(exclude_ids) if exclude_ids else ()
    if len(excluded):
        outside = outside.copy()
        outside[excluded] = True
    eligible = len(outside) - int(np.count_nonzero(outside))
    if not eligible:
        return []
    query = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(query))
    query = query / norm if norm else query
    text = keyword_match(held.words, keywords)
    # exp(−max(0, now − last_seen) / τ), in place
    recency = np.subtract(held.last_seen, now_epoch)
    np.minimum(recency, 0.0, out=recency)
    np.divide(recency, tau_seconds, out=recency)
    factor = recency_factor(np.exp(recency, out=recency)) * held.standing

    if eligible > RESCORE_ROWS and held.keys is not None:
        similarity = np.clip(_product(held.keys, _product(held.basis, query)), 0.0, 1.0)
        estimate = memory_fused(similarity, text) * factor
        np.copyto(estimate, -np.inf, where=outside)
        rows = np.sort(np.argpartition(estimate, len(estimate) - RESCORE_ROWS)[-RESCORE_ROWS:])
    else:
        rows = np.flatnonzero(~outside)
    similarity = np.clip(_product(held.vectors[rows], query), 0.0, 1.0)
    score = memory_fused(similarity, None if text is None else text[rows]) * factor[rows]
    if len(rows) > limit:
        best = np.argpartition(score, len(score) - limit)[-limit:]
        rows, score = rows[best], score[best]
    order = np.lexsort((held.ids[rows], -score))
    return [int(i) for i in held.ids[rows[order]]]


def held_cosines(held: HeldMemories, *, ids: list[int], vector) -> np.ndarray:
    """The cosine of the query with each of these held memories (0 for one without an embedding)."""
    query = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(query))
    rows = np.searchsorted(held.ids, np.asarray(ids, dtype=np.int64))
    return (held.vectors[rows] @ (query / norm if norm else query)).astype(np.float64)
