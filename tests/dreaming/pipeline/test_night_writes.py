"""night_writes' vector text: what a bulk insert sends is the vector pgvector would have sent."""
import numpy as np
import pytest
from django.conf import settings
from django.db import connection

from dreaming.models import Memory
from dreaming.pipeline.night_writes import vector_text, vectors_as_text
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db


def test_vector_text_is_the_floats_pgvector_stores_from_numpy_or_a_list():
    vector = np.array([0.1, -0.25, 1e-8, 3], dtype=np.float32)
    assert vector_text(vector) == "[0.10000000149011612, -0.25, 9.99999993922529e-09, 3.0]"
    assert vector_text(list(vector)) == vector_text(vector)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::vector::text = %s::vector::text", [vector_text(vector), "[0.1,-0.25,1e-08,3]"])
        assert cursor.fetchone()[0] is True


def test_a_bulk_insert_with_vectors_as_text_stores_each_vector_and_gives_the_objects_theirs_back(user):
    rng = np.random.default_rng(3)
    vectors = [rng.standard_normal(settings.EMBEDDING_DIM).astype(np.float32) for _ in range(3)]
    memories = [MemoryFactory.build(user=user, embedding=v) for v in vectors[:2]] + [MemoryFactory.build(user=user)]

    with vectors_as_text(memories):
        Memory.objects.bulk_create(memories)

    assert memories[0].embedding is vectors[0] and memories[2].embedding is None
    stored = {m.pk: m.embedding for m in Memory.objects.filter(pk__in=[m.pk for m in memories])}
    assert np.array_equal(stored[memories[0].pk], vectors[0]) and np.array_equal(stored[memories[1].pk], vectors[1])
    assert stored[memories[2].pk] is None
