"""Coarse-to-fine recall: the coarse vector stays in sync on every write path, and ranking by the
coarse shortlist + exact re-scoring gives the same top-10 as scoring every memory exactly."""
import math
from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone

from bench.synth import memory_statements, user_turns
from dreaming import recall as recall_module
from dreaming.models import Category, Memory
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.recall import COARSE_DIM, coarse_project, query_keywords, recall, recall_score
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db
EMBEDDER = LocalEmbedder(dimensions=512)


def stored_coarse(memory_id):
    with connection.cursor() as cursor:
        cursor.execute("SELECT embedding_coarse::real[] FROM dreaming_memory WHERE id = %s", [memory_id])
        value = cursor.fetchone()[0]
    return None if value is None else np.asarray(value, dtype=np.float32)


def projection_of(vector):
    return np.asarray(coarse_project(vector), dtype=np.float32)


def test_the_database_projection_equals_the_numpy_twin_bit_for_bit_for_any_dimension():
    rng = np.random.default_rng(7)
    with connection.cursor() as cursor:
        for dimensions in (8, 64, 100, 512, 1536):
            vector = rng.standard_normal(dimensions).astype(np.float32)
            cursor.execute("SELECT memory_embedding_coarse(%s::vector)::real[]", ["[" + ",".join(map(repr, map(float, vector))) + "]"])
            in_database = np.asarray(cursor.fetchone()[0], dtype=np.float32)
            assert in_database.shape == (COARSE_DIM,)
            assert np.array_equal(in_database, projection_of(vector)), dimensions


def test_the_projection_is_linear_and_not_plain_sum_pooling():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(512).astype(np.float32), rng.standard_normal(512).astype(np.float32)
    assert np.allclose(projection_of(a + 2 * b), projection_of(a) + 2 * projection_of(b), atol=1e-4)
    pooled = a.reshape(-1, COARSE_DIM).sum(axis=0)
    assert not np.allclose(np.abs(projection_of(a)), np.abs(pooled))  # chunks get different signs


def test_the_coarse_vector_follows_every_write_path(user):
    first, second, third = (EMBEDDER.embed([text])[0] for text in ("User has a dog", "User lives in Lisbon", "用户喜欢绿茶"))
    memory = MemoryFactory(user=user, statement="User has a dog", embedding=first)  # ORM insert
    assert np.array_equal(stored_coarse(memory.pk), projection_of(first))

    memory.embedding = second  # save(): Django also sends its (stale, None) coarse value
    memory.save()
    assert np.array_equal(stored_coarse(memory.pk), projection_of(second))

    Memory.objects.filter(pk=memory.pk).update(embedding=third)  # QuerySet.update
    assert np.array_equal(stored_coarse(memory.pk), projection_of(third))

    with connection.cursor() as cursor:  # raw SQL, as reembed writes
        cursor.execute("UPDATE dreaming_memory SET embedding = %s::vector WHERE id = %s", [str(list(first)).replace(" ", ""), memory.pk])
        cursor.execute("UPDATE dreaming_memory SET embedding_coarse = %s::vector WHERE id = %s", ["[" + ",".join(["1"] * COARSE_DIM) + "]", memory.pk])
    assert np.array_equal(stored_coarse(memory.pk), projection_of(first))  # a forged coarse value is replaced

    (bulk,) = Memory.objects.bulk_create([MemoryFactory.build(user=user, statement="x", embedding=second)])
    assert np.array_equal(stored_coarse(bulk.pk), projection_of(second))

    Memory.objects.filter(pk=memory.pk).update(embedding=None)
    assert stored_coarse(memory.pk) is None


def test_updates_that_do_not_touch_the_embedding_keep_the_coarse_vector(user):
    vector = EMBEDDER.embed(["User has a dog named Milo"])[0]
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", embedding=vector)
    recall(user=user, query="Milo", k=1, embedder=EMBEDDER)  # the recall-stats UPDATE
    memory.refresh_from_db()
    assert memory.recall_count == 1
    assert np.array_equal(stored_coarse(memory.pk), projection_of(vector))


def _exact_top(*, user, query, now, k=10):
    """Score EVERY active memory of the user exactly (full embedding), with recall's formula."""
    q = np.asarray(EMBEDDER.embed([query], kind="query")[0], dtype=np.float64)
    keywords = query_keywords(query)
    total = sum(weight for _, weight in keywords)
    tau = 26 * 7 * 86400
    scored = []
    for memory in Memory.objects.filter(user=user, status=Memory.Status.ACTIVE):
        e = np.asarray(memory.embedding, dtype=np.float64)
        similarity = float(e @ q / (np.linalg.norm(e) * np.linalg.norm(q)))
        parts = {
            "similarity": min(1.0, max(0.0, similarity)),
            "text_match": None if not keywords else sum(w for word, w in keywords if word in memory.statement.lower()) / total,
            "recency": math.exp(-max(0.0, (now - memory.last_seen).total_seconds()) / tau),
            "importance": memory.importance,
            "confidence": memory.confidence,
        }
        scored.append((recall_score(parts), memory.pk))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [memory_id for _, memory_id in scored[:k]]


def _memories_create(*, user, count, now):
    memories = []
    for i, (category, statement) in enumerate(memory_statements(count=count, seed=21)):
        seen = now - timedelta(days=(i * 37) % 500)
        memories.append(Memory(
            user=user, statement=statement, category=category if category in Category.values else Category.FACT,
            importance=((i * 7) % 11) / 10, confidence=0.3 + 0.7 * ((i * 5) % 13) / 12,
            valid_from=seen, first_seen=seen, last_seen=seen, embedding=EMBEDDER.embed([statement])[0],
        ))
    return Memory.objects.bulk_create(memories)


def _agreement(*, user, queries, now):
    equal = 0
    for query in queries:
        found = [r.id for r in recall(user=user, query=query, k=10, embedder=EMBEDDER, exclude_ids=[], now=now, record=False)]
        equal += found == _exact_top(user=user, query=query, now=now)
    return equal / len(queries)


def test_coarse_to_fine_top_10_equals_the_exact_top_10_in_95_percent_of_queries(user, settings):
    """400 memories, a coarse shortlist of COARSE_CANDIDATES (200): a broken projection (or a query projected differently
    from the stored rows) loses some of the 10 best memories in most queries. The queries ask about
    things the user has memories of (other phrasings of the same kinds of statements)."""
    settings.RECALL_TAU_WEEKS = 26
    now = timezone.now()
    memories = _memories_create(user=user, count=400, now=now)
    assert recall_module.COARSE_CANDIDATES < len(memories)  # the shortlist really drops rows
    queries = [statement for _, statement in memory_statements(count=60, seed=99)]
    assert _agreement(user=user, queries=queries, now=now) >= 0.95
    assert not Memory.objects.filter(user=user, recall_count__gt=0).exists()  # record=False recorded nothing


def test_a_small_shortlist_still_ranks_by_the_score_s_factors_not_by_similarity_alone(user, settings, monkeypatch):
    """With a shortlist of 30 out of 400, the shortlist key (coarse similarity × recency ×
    importance × confidence) keeps finding most exact top-10s; similarity alone would not."""
    settings.RECALL_TAU_WEEKS = 26
    now = timezone.now()
    _memories_create(user=user, count=400, now=now)
    monkeypatch.setattr(recall_module, "COARSE_CANDIDATES", 30)
    queries = [statement for _, statement in memory_statements(count=30, seed=98)]
    assert _agreement(user=user, queries=queries, now=now) >= 0.6
