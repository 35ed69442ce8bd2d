"""Recall's shortlist key: the database keeps it in sync on every write path, it equals its NumPy
twin, one inner product with the query key reproduces the shortlist score, and ranking by the
shortlist + exact re-scoring gives the same top-10 as scoring every memory exactly."""
import math
from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone

from bench.synth import memory_statements
from dreaming.memory import recall as recall_module
from dreaming.models import Category, Memory, MemoryRecall
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.recall import query_keywords, recall, recall_score
from dreaming.memory.recall_key import KEY_DIM, KEY_RECENCY_POWER, KEY_TAU_SECONDS, recall_index_sync, recall_memory_key, recall_projection, recall_query_key
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db
EMBEDDER = LocalEmbedder(dimensions=512)


def stored_key(memory_id):
    with connection.cursor() as cursor:
        cursor.execute("SELECT recall_key::real[] FROM dreaming_memory WHERE id = %s", [memory_id])
        value = cursor.fetchone()[0]
    return None if value is None else np.asarray(value, dtype=np.float64)


def twin_key(memory_id):
    memory = Memory.objects.get(pk=memory_id)
    key = recall_memory_key(memory.embedding, importance=memory.importance, confidence=memory.confidence, last_seen=memory.last_seen)
    return None if key is None else np.asarray(key)


def assert_key_is_current(memory_id):
    stored, expected = stored_key(memory_id), twin_key(memory_id)
    assert stored is not None and expected is not None
    assert np.allclose(stored, expected, rtol=1e-5, atol=1e-6)


def test_the_projection_is_a_fixed_plus_minus_one_matrix_per_dimension():
    matrix = recall_projection(512)
    assert matrix.shape == (KEY_DIM, 512) and set(np.unique(matrix)) == {-1.0, 1.0}
    assert abs(matrix.mean()) < 0.02  # balanced signs
    assert np.array_equal(recall_projection(512)[:, :100], recall_projection(100)[:, :100])  # a hash of (row, column)
    # Rows are nearly orthogonal, so projected cosines estimate the true ones.
    gram = (matrix @ matrix.T) / 512
    assert np.abs(gram - np.eye(KEY_DIM)).max() < 0.25
    rng = np.random.default_rng(9)
    errors = []
    for _ in range(200):
        a, b = rng.standard_normal(512), rng.standard_normal(512)
        b = 0.6 * a + 0.8 * b  # true cosine ≈ 0.6
        true = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
        pa, pb = matrix @ a, matrix @ b
        errors.append(pa @ pb / (np.linalg.norm(pa) * np.linalg.norm(pb)) - true)
    assert abs(np.mean(errors)) < 0.02 and np.std(errors) < 0.12  # ≈ (1 − cos²)/√KEY_DIM


def test_the_database_projection_table_holds_the_same_matrix():
    with connection.cursor() as cursor:
        cursor.execute("SELECT r::real[] FROM memory_recall_projection ORDER BY j")
        rows = np.asarray([row[0] for row in cursor.fetchall()], dtype=np.float32)
    assert np.array_equal(rows, recall_projection(rows.shape[1]))


def test_the_key_orders_memories_by_projected_similarity_times_the_score_s_factors():
    """key(memory) · key(query) = projected cosine × importance and confidence factors × e^{−α·age/τ₀},
    up to one factor that is the same for every memory of the query."""
    rng = np.random.default_rng(4)
    now = timezone.now()
    query_vector = rng.standard_normal(512)
    query_key = recall_query_key(query_vector)
    ratios = []
    for days, importance, confidence in ((0, 1.0, 1.0), (30, 0.2, 0.5), (400, 0.7, 0.1), (3000, 0.0, 0.0)):
        memory_vector = rng.standard_normal(512)
        product = np.dot(recall_memory_key(memory_vector, importance=importance, confidence=confidence,
                                           last_seen=now - timedelta(days=days)), query_key)
        p, q = recall_projection(512) @ memory_vector, recall_projection(512) @ query_vector
        cosine = p @ q / (np.linalg.norm(p) * np.linalg.norm(q))
        expected = (cosine * (0.5 + 0.5 * importance) * (0.7 + 0.3 * confidence)
                    * math.exp(-KEY_RECENCY_POWER * days * 86400 / KEY_TAU_SECONDS))
        ratios.append(product / expected)
    assert ratios == pytest.approx([ratios[0]] * len(ratios), rel=1e-6)
    assert ratios[0] > 0


def test_the_database_key_equals_its_numpy_twin_for_old_and_new_memories(user):
    now = timezone.now()
    for days in (0, 365, 36500):
        memory = MemoryFactory(user=user, statement=f"User said {days}", embedding=EMBEDDER.embed([f"User said {days}"])[0],
                               last_seen=now - timedelta(days=days), importance=0.3, confidence=0.9)
        assert_key_is_current(memory.pk)


def test_the_key_follows_every_write_path(user):
    first, second, third = (EMBEDDER.embed([text])[0] for text in ("User has a dog", "User lives in Lisbon", "用户喜欢绿茶"))
    memory = MemoryFactory(user=user, statement="User has a dog", embedding=first)  # ORM insert
    assert_key_is_current(memory.pk)

    memory.embedding = second  # save(): Django also sends its (stale, None) key
    memory.save()
    assert_key_is_current(memory.pk)

    Memory.objects.filter(pk=memory.pk).update(embedding=third)  # QuerySet.update
    assert_key_is_current(memory.pk)
    before = stored_key(memory.pk)
    for change in ({"importance": 0.05}, {"confidence": 0.99}, {"last_seen": timezone.now() - timedelta(days=900)}):
        Memory.objects.filter(pk=memory.pk).update(**change)  # every factor of the score is in the key
        assert_key_is_current(memory.pk)
        assert not np.allclose(stored_key(memory.pk), before)
        before = stored_key(memory.pk)

    with connection.cursor() as cursor:  # raw SQL, as reembed writes
        cursor.execute("UPDATE dreaming_memory SET embedding = %s::vector WHERE id = %s", [str(list(first)).replace(" ", ""), memory.pk])
        cursor.execute("UPDATE dreaming_memory SET recall_key = %s::vector WHERE id = %s", ["[" + ",".join(["1"] * KEY_DIM) + "]", memory.pk])
    assert_key_is_current(memory.pk)  # a forged key is replaced

    (bulk,) = Memory.objects.bulk_create([MemoryFactory.build(user=user, statement="x", embedding=second)])
    assert_key_is_current(bulk.pk)

    Memory.objects.filter(pk=memory.pk).update(embedding=None)
    assert stored_key(memory.pk) is None


def test_updates_that_do_not_touch_the_key_s_inputs_leave_it_alone(user):
    vector = EMBEDDER.embed(["User has a dog named Milo"])[0]
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", embedding=vector)
    before = stored_key(memory.pk)
    Memory.objects.filter(pk=memory.pk).update(score=0.42, status=Memory.Status.ACTIVE, statement="User has a dog, Milo")
    assert np.array_equal(stored_key(memory.pk), before)


@pytest.mark.django_db(transaction=True)
def test_recalling_never_writes_the_memory_rows_so_the_index_only_scan_stays_heap_free(user):
    """Recall stats go to their own table: the memory table's rows (and their pages' all-visible
    bits, which the index-only scan needs) are untouched by recall."""
    for i in range(30):
        MemoryFactory(user=user, statement=f"User visited city number {i}", embedding=EMBEDDER.embed([f"User visited city number {i}"])[0])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM dreaming_memory")
        cursor.execute("SELECT array_agg(xmin::text ORDER BY id) FROM dreaming_memory")
        versions = cursor.fetchone()[0]
    results = recall(user=user, query="city", k=10, embedder=EMBEDDER, exclude_ids=[])
    assert len(results) == 10
    assert MemoryRecall.objects.filter(memory__user=user, count=1).count() == 10
    assert Memory.objects.get(pk=results[0].id).recall_count == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT array_agg(xmin::text ORDER BY id) FROM dreaming_memory")
        assert cursor.fetchone()[0] == versions  # no row version of a memory changed


def test_a_vector_of_another_size_gets_no_key_instead_of_failing_the_write(user):
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE dreaming_memory ALTER COLUMN embedding TYPE vector")  # any size, as mid-reembed
    memory = MemoryFactory(user=user, statement="User likes tea", embedding=[0.5] * 64)
    assert stored_key(memory.pk) is None
    with connection.cursor() as cursor:
        # The type change also reset the column's storage, which the sync sets again with an ALTER
        # TABLE: Postgres refuses that while the factory's deferred foreign-key checks are pending
        # (reembed and migrate sync before writing any row).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    recall_index_sync()  # the projection follows the column: still unsized here, so nothing changes
    assert stored_key(memory.pk) is None


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


def test_shortlist_then_exact_top_10_equals_the_exact_top_10_in_95_percent_of_queries(user, settings):
    """400 memories, a shortlist of COARSE_CANDIDATES (200): a broken projection (or a query projected
    differently from the stored rows) loses some of the 10 best memories in most queries."""
    settings.RECALL_TAU_WEEKS = 26
    now = timezone.now()
    memories = _memories_create(user=user, count=400, now=now)
    assert recall_module.COARSE_CANDIDATES < len(memories)  # the shortlist really drops rows
    queries = [statement for _, statement in memory_statements(count=60, seed=99)]
    assert _agreement(user=user, queries=queries, now=now) >= 0.95
    assert not MemoryRecall.objects.filter(memory__user=user).exists()  # record=False recorded nothing


def test_a_small_shortlist_still_ranks_by_the_score_s_factors_not_by_similarity_alone(user, settings, monkeypatch):
    """With a shortlist of 30 out of 400, the key (projected similarity × recency × importance ×
    confidence) keeps finding most exact top-10s; similarity alone would not."""
    settings.RECALL_TAU_WEEKS = 26
    now = timezone.now()
    _memories_create(user=user, count=400, now=now)
    monkeypatch.setattr(recall_module, "COARSE_CANDIDATES", 30)
    queries = [statement for _, statement in memory_statements(count=30, seed=98)]
    assert _agreement(user=user, queries=queries, now=now) >= 0.6


def _memory_toast_rows_and_storage():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.reltoastrelid::regclass::text, a.attstorage FROM pg_class c JOIN pg_attribute a "
            "ON a.attrelid = c.oid AND a.attname = 'embedding' WHERE c.oid = 'dreaming_memory'::regclass"
        )
        toast, storage = cursor.fetchone()
        cursor.execute(f"SELECT count(*) FROM {toast}")
        return cursor.fetchone()[0], storage


def test_embeddings_are_stored_in_the_row_so_the_exact_stage_reads_no_toast(user):
    """A 512-d vector (2,056 bytes) is over Postgres' 2 KB out-of-line threshold: with the default
    storage every memory would leave two TOAST chunks behind (and recall read them back)."""
    rng = np.random.default_rng(3)
    dense = lambda: rng.standard_normal(512).tolist()  # noqa: E731 — a model's vectors: nothing to compress
    for i in range(5):
        MemoryFactory(user=user, statement=f"User owns guitar number {i}", embedding=dense())
    Memory.objects.filter(user=user).update(embedding=dense())  # updates too
    assert _memory_toast_rows_and_storage() == (0, "m")
    with connection.cursor() as cursor:  # the control: the same rows with the type's default storage
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # ALTER TABLE waits for no deferred FK check
        cursor.execute("ALTER TABLE dreaming_memory ALTER COLUMN embedding SET STORAGE EXTENDED")
        cursor.execute("ALTER TABLE dreaming_memory RESET (toast_tuple_target)")
        cursor.execute("UPDATE dreaming_memory SET embedding = embedding::real[]::vector")
    assert _memory_toast_rows_and_storage() == (10, "x")
    recall_index_sync()  # what migration 0008 and reembed run: back to inline for every later write
    with connection.cursor() as cursor:
        cursor.execute("UPDATE dreaming_memory SET embedding = embedding::real[]::vector")
    assert _memory_toast_rows_and_storage() == (0, "m")


@pytest.mark.django_db(transaction=True)
def test_migration_0008_moves_stored_vectors_into_their_rows_and_fills_missing_keys(user):
    from django.db.migrations.executor import MigrationExecutor

    def migrate(target):
        executor = MigrationExecutor(connection)
        executor.migrate([("dreaming", target)])

    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("dreaming")[0][1]
    migrate("0007_memory_document_scope_index_only")
    try:
        rng = np.random.default_rng(5)
        memories = [MemoryFactory(user=user, statement=f"User plays tune {i}", embedding=rng.standard_normal(512).tolist())
                    for i in range(3)]
        with connection.cursor() as cursor:  # a key lost by an older version (no trigger ran)
            cursor.execute("ALTER TABLE dreaming_memory DISABLE TRIGGER memory_recall_key_sync")
            cursor.execute("UPDATE dreaming_memory SET recall_key = NULL WHERE id = %s", [memories[0].pk])
            cursor.execute("ALTER TABLE dreaming_memory ENABLE TRIGGER memory_recall_key_sync")
        assert _memory_toast_rows_and_storage() == (6, "x")
        assert stored_key(memories[0].pk) is None
    finally:
        migrate(leaf)
    assert _memory_toast_rows_and_storage() == (0, "m")
    for memory in memories:
        assert_key_is_current(memory.pk)
