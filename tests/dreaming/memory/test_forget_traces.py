"""Words of a forgotten memory kept by other rows are blanked too."""
import pytest

from dreaming.models import Memory
from dreaming.memory.services import memory_forget
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db


def test_the_reason_an_older_memory_was_superseded_loses_the_forgotten_words(user):
    tokyo = MemoryFactory(user=user, statement="User moved to Tokyo")
    shanghai = MemoryFactory(user=user, statement="User lives in Shanghai", status=Memory.Status.SUPERSEDED,
                             superseded_by=tokyo, score_breakdown={"superseded_reason": "the user moved to Tokyo"})

    memory_forget(memory=tokyo, by=user)

    shanghai.refresh_from_db()
    assert "Tokyo" not in str(shanghai.score_breakdown)
    assert shanghai.status == Memory.Status.SUPERSEDED and shanghai.superseded_by is None
