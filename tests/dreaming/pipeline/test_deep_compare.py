"""Deep sleep's compare step: which memories a batch of clusters is shown, in which order."""
import pytest
from django.conf import settings

from dreaming.models import Memory
from dreaming.pipeline.deep_compare import memories_nearest_ids
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db

VECTOR = [1.0] + [0.0] * (settings.EMBEDDING_DIM - 1)


def test_equally_near_memories_come_oldest_first_whatever_their_rows_physical_order(user):
    older = MemoryFactory(user=user, statement="User lives in Tokyo", embedding=VECTOR)
    newer = MemoryFactory(user=user, statement="User lives in Shenzhen", embedding=VECTOR)
    for _ in range(3):  # each UPDATE writes the older row's new version after the newer one
        older.confidence = min(1.0, older.confidence + 0.01)
        older.save(update_fields=["confidence"])

    nearest = memories_nearest_ids(user=user, persona_id=None, vectors=[VECTOR, VECTOR])

    assert nearest == [older.pk, newer.pk]  # each memory once, where it first comes
    assert Memory.objects.filter(user=user).count() == 2
