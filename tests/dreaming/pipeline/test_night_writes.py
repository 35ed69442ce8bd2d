"""night_writes: the vector text, and `rows_insert` storing what Django's bulk_create would store."""
import numpy as np
import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Value
from django.utils import timezone

from dreaming.models import Candidate, Memory, MemorySource
from dreaming.pipeline.night_writes import memory_ids_reserve, rows_insert, vector_text
from tests.factories import CandidateFactory, MemoryFactory, MemorySourceFactory

pytestmark = pytest.mark.django_db


def test_vector_text_is_the_floats_pgvector_stores_from_numpy_or_a_list():
    vector = np.array([0.1, -0.25, 1e-8, 3], dtype=np.float32)
    assert vector_text(vector) == "[0.10000000149011612, -0.25, 9.99999993922529e-09, 3.0]"
    assert vector_text(list(vector)) == vector_text(vector)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::vector::text = %s::vector::text", [vector_text(vector), "[0.1,-0.25,1e-08,3]"])
        assert cursor.fetchone()[0] is True


def _vectors(n: int):
    rng = np.random.default_rng(3)
    return [rng.standard_normal(settings.EMBEDDING_DIM).astype(np.float32) for _ in range(n)]


def _stored(model, pks: list[int], skip=("id", "created_at", "updated_at")) -> list[tuple]:
    """Every stored column but the id and the clock, row by row in the given order (vectors as text)."""
    columns = [f.column for f in model._meta.concrete_fields if f.column not in skip]
    select = ", ".join(f"{c}::text" if c in ("embedding", "recall_key") else c for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {select} FROM {model._meta.db_table} WHERE id = ANY(%s) ORDER BY array_position(%s, id)",
                       [pks, pks])
        return cursor.fetchall()


def test_rows_insert_stores_the_rows_bulk_create_stores_and_gives_them_their_new_ids_in_order(user):
    said_at = timezone.now()

    def candidates():
        vectors = _vectors(2)
        return [
            CandidateFactory.build(user=user, embedding=vectors[0], signals={"seq": 3, "specific": 0.25}, score=None,
                                   said_at=said_at),
            CandidateFactory.build(user=user, quote="私は猫が好き", statement="用户喜欢猫", embedding=None,
                                   score_breakdown={"vague": "too general"}, importance=0.125,
                                   said_at=said_at),
            CandidateFactory.build(user=user, embedding=vectors[1], status=Candidate.Status.REJECTED_UNVERIFIED,
                                   reason="quote not found", verified=False, said_at=said_at),
        ]

    by_django, ours = candidates(), candidates()
    Candidate.objects.bulk_create(by_django)
    rows_insert(objects=ours)

    assert [c.pk for c in ours] == sorted(c.pk for c in ours) and min(c.pk for c in ours) > max(c.pk for c in by_django)
    assert all(not c._state.adding for c in ours)
    assert _stored(Candidate, [c.pk for c in ours]) == _stored(Candidate, [c.pk for c in by_django])
    assert all(c.created_at is not None for c in ours)


def test_rows_insert_keeps_reserved_ids_and_stores_vectors_json_and_nulls(user):
    vectors = _vectors(2)
    memories = [MemoryFactory.build(user=user, embedding=vectors[0], score_breakdown={"score": 0.7, "why": ["a", "b"]}),
                MemoryFactory.build(user=user, embedding=None, valid_to=None),
                MemoryFactory.build(user=user, embedding=vectors[1])]
    ids = memory_ids_reserve(3)
    for memory, pk in zip(memories, ids):
        memory.pk = pk

    rows_insert(objects=memories)
    sources = [MemorySourceFactory.build(memory=memories[0]), MemorySourceFactory.build(memory=memories[2], quote="x")]
    rows_insert(objects=sources)

    stored = {m.pk: m for m in Memory.objects.filter(pk__in=ids)}
    assert sorted(stored) == ids
    assert np.array_equal(stored[ids[0]].embedding, vectors[0]) and stored[ids[1]].embedding is None
    assert stored[ids[0]].score_breakdown == {"score": 0.7, "why": ["a", "b"]}
    assert stored[ids[0]].recall_key is not None  # the table's trigger still makes the key
    assert memories[0].embedding is vectors[0]  # the objects keep their own values
    assert sorted(MemorySource.objects.values_list("memory_id", "quote")) == sorted(
        [(ids[0], "I like it"), (ids[2], "x")])
    assert all(s.pk is not None for s in sources)


def test_rows_insert_refuses_an_sql_expression_it_would_send_as_text(user):
    memory = MemoryFactory.build(user=user, statement=Value("x"))
    with pytest.raises(ValueError, match="statement"):
        rows_insert(objects=[memory])
    assert not Memory.objects.exists()
