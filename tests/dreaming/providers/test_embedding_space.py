"""The embedding space is guarded (issue #17): vectors made by one embedder are never mixed with
another's, and switching the embedder without `reembed` loses no session."""
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from dreaming.apps import voyage_dimensions_check
from dreaming.memory.recall import recall
from dreaming.models import EmbeddingSpace, LLMCall, Memory
from dreaming.pipeline.deep import deep_sleep_all
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.pipeline.weekly import weekly_consolidate_all
from dreaming.providers import embedding_space
from dreaming.providers.embedding_space import EmbeddingSpaceMismatch, embedding_space_problem
from tests.factories import MemoryFactory
from tests.support.night import chat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    embedding_space._matching.clear()
    yield
    embedding_space._matching.clear()


def _stored_vectors(user, settings):
    settings.EMBEDDING_BACKEND, settings.EMBEDDING_MODEL = "local", "local-ngram-v1"
    from dreaming.providers import get_embedder

    memory = MemoryFactory(user=user, statement="User lives in Lisbon")
    memory.embedding = get_embedder().embed([memory.statement])[0]
    memory.save(update_fields=["embedding"])
    assert embedding_space_problem() is None  # recorded: local-ngram-v1
    return memory


def test_a_database_without_vectors_adopts_the_configured_embedder(settings):
    settings.EMBEDDING_MODEL = "some-new-model"
    assert embedding_space_problem() is None
    assert EmbeddingSpace.objects.get().model == "some-new-model"


def test_switching_the_embedder_without_reembed_loses_no_session_and_reembed_brings_it_back(user, settings, client):
    _stored_vectors(user, settings)
    session = chat(user, timezone.now() - timedelta(hours=5), "I have a dog named Milo and I live in Lisbon.")
    settings.EMBEDDING_MODEL = "local-ngram-v2"  # same backend, same dimension, another model: must not mix

    light = light_sleep_sweep()
    deep = deep_sleep_all()
    weekly = weekly_consolidate_all()

    for run in (light, deep, weekly):
        assert run.status == "failed" and "run `manage.py reembed`" in run.error
    session.refresh_from_db()
    assert (session.claimed_at, session.attempts, session.dreamed_at) == (None, 0, None)  # not even claimed
    assert light.sessions_claimed == 0 and not LLMCall.objects.exists()
    with pytest.raises(EmbeddingSpaceMismatch, match="reembed"):
        recall(user=user, query="Where does the user live?")
    from tests.factories import UserFactory

    staff = UserFactory(username="staffer", is_staff=True)
    client.force_login(staff)
    page = client.get("/staff/dreaming/")
    assert page.status_code == 200 and "manage.py reembed" in page.content.decode()
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json()["embedding_space"]["status"] == "mismatch"
    assert any("reembed" in problem for problem in health.json()["problems"])

    call_command("reembed", stdout=StringIO())

    assert EmbeddingSpace.objects.get().model == "local-ngram-v2"
    embedding_space._matching.clear()
    assert light_sleep_sweep().sessions_done == 1
    session.refresh_from_db()
    assert session.dreamed_at is not None and session.candidates.exists()
    results = recall(user=user, query="Where does the user live?", exclude_ids=[])
    assert "User lives in Lisbon" in [r.statement for r in results if r.kind == "memory"]
    assert Memory.objects.filter(user=user).exists()


@pytest.mark.parametrize("model,dimensions,ok", [
    ("voyage-3.5-lite", 1024, True), ("voyage-3.5-lite", 768, False), ("voyage-3-lite", 512, True),
    ("voyage-3-lite", 1024, False), ("voyage-4-large", 2048, True),
])
def test_voyage_dimensions_are_checked_at_start_up(settings, model, dimensions, ok):
    settings.EMBEDDING_BACKEND, settings.EMBEDDING_MODEL, settings.EMBEDDING_DIM = "voyage", model, dimensions
    errors = voyage_dimensions_check()
    assert (errors == []) is ok
    if not ok:
        assert errors[0].id == "dreaming.E001" and str(dimensions) in errors[0].msg
