"""OpenAI and Voyage embedders against the fake server's wire formats, and their accounting."""
from decimal import Decimal

import pytest

from dreaming.models import LLMCall
from dreaming.providers import CallContext, ProviderUnavailable, get_embedder
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.providers.openai_embedder import EmbeddingDimensionMismatch, OpenAIEmbedder
from dreaming.providers.voyage_embedder import VoyageEmbedder
from tests.factories import DreamRunFactory

pytestmark = pytest.mark.django_db


def _cos(a, b):
    return sum(x * y for x, y in zip(a, b))


@pytest.fixture
def run(user):
    return DreamRunFactory(phase="deep", user=user)


# --- OpenAI-compatible ----------------------------------------------------------------------------


def test_openai_embedder_batches_sends_dimensions_and_returns_vectors_in_order(openai_backend, settings, run, user):
    settings.EMBEDDING_DIM = 64
    settings.EMBEDDING_BATCH_SIZE = 2
    texts = ["User has a dog named Milo", "User lives in Lisbon", "用户喜欢打篮球", "User has a dog called Milo", "x"]

    embedder = get_embedder()
    vectors = embedder.embed(texts, kind="document", ctx=CallContext(user_id=user.pk, run_id=run.pk, phase="deep"))

    assert isinstance(embedder, OpenAIEmbedder)
    assert [len(r.body["input"]) for r in openai_backend.embedding_requests] == [2, 2, 1]
    sent = openai_backend.embedding_requests[0].body
    assert sent["model"] == "text-embedding-3-small" and sent["dimensions"] == 64
    assert sent["encoding_format"] == "float"
    assert openai_backend.embedding_requests[0].headers["authorization"] == "Bearer sk-fake-test-key"
    assert [len(v) for v in vectors] == [64] * 5
    assert _cos(vectors[0], vectors[3]) > _cos(vectors[0], vectors[1])  # order kept: same text → same slot
    calls = LLMCall.objects.filter(task="embed")
    assert calls.count() == 3 and set(calls.values_list("status", flat=True)) == {"ok"}
    assert all(c.prompt_tokens > 0 and c.backend == "openai" and c.user_id == user.pk for c in calls)
    run.refresh_from_db()
    assert run.embedding_calls == 3 and run.llm_calls == 0
    assert run.prompt_tokens == 0  # embedding tokens are counted apart (their LLMCall rows), not as prompt tokens


def test_models_without_a_dimensions_parameter_are_not_sent_one(openai_backend, settings):
    settings.EMBEDDING_MODEL = "nomic-embed-text"
    settings.EMBEDDING_DIM = 512  # the fake answers its default size when no dimensions are asked for
    assert len(get_embedder().embed(["hello"])[0]) == 512
    assert "dimensions" not in openai_backend.embedding_requests[0].body


def test_a_wrong_dimension_is_a_clear_error(openai_backend, settings):
    settings.EMBEDDING_DIM = 64
    openai_backend.queue_embeddings([[0.1] * 32])
    with pytest.raises(EmbeddingDimensionMismatch, match="returned 32-dimensional vectors but EMBEDDING_DIM is 64"):
        get_embedder().embed(["hello"])
    assert LLMCall.objects.get().status == "error"


def test_secrets_are_masked_before_embedding(openai_backend, settings):
    settings.EMBEDDING_DIM = 16
    get_embedder().embed(["my password is hunter2pass", "key sk-abcdefghijklmnopqrstuvwxyz0123"])
    sent = openai_backend.embedding_requests[0].text()
    assert "hunter2pass" not in sent and "sk-abcdef" not in sent and sent.count("[SECRET]") == 2


@pytest.mark.parametrize("fault", ["500", "429", "hang"])
def test_openai_embedding_faults_are_unavailable_after_bounded_retries(openai_backend, settings, fault):
    settings.EMBEDDING_DIM = 16
    settings.EMBEDDING_TIMEOUT = 0.3
    settings.EMBEDDING_MAX_RETRIES = 1
    if fault == "500":
        openai_backend.queue_error(500, endpoint="embeddings", times=3)
    elif fault == "429":
        openai_backend.queue_rate_limit(endpoint="embeddings", times=3)
    else:
        openai_backend.queue_hang(5, endpoint="embeddings", times=3)
    with pytest.raises(ProviderUnavailable):
        get_embedder().embed(["hello"], kind="query")
    assert len(openai_backend.embedding_requests) == 2
    call = LLMCall.objects.get()
    assert (call.task, call.status, call.phase) == ("embed", "error", "recall")


def test_embedding_cost_uses_the_embedding_price(openai_backend, settings, run):
    settings.EMBEDDING_DIM = 8
    settings.EMBEDDING_PRICE_PER_MTOK = 0.02
    openai_backend.queue_embeddings([[1.0] + [0.0] * 7], usage_tokens=500_000)
    get_embedder().embed(["x"], ctx=CallContext(run_id=run.pk, phase="deep"))
    assert LLMCall.objects.get().cost_usd == Decimal("0.010000")
    run.refresh_from_db()
    assert run.cost_usd == Decimal("0.010000") and run.embedding_calls == 1


def test_embedding_calls_can_be_counted_without_rows(openai_backend, settings, run):
    settings.EMBEDDING_DIM = 8
    settings.EMBEDDING_RECORD_CALLS = False
    get_embedder().embed(["a", "b"], ctx=CallContext(run_id=run.pk, phase="deep"))
    run.refresh_from_db()
    assert run.embedding_calls == 1 and not LLMCall.objects.exists()


def test_the_local_embedder_counts_its_calls_in_the_run(run, settings):
    LocalEmbedder(dimensions=32).embed(["a", "b"], ctx=CallContext(run_id=run.pk, phase="deep"))
    run.refresh_from_db()
    assert run.embedding_calls == 1 and not LLMCall.objects.exists()


# --- Voyage ---------------------------------------------------------------------------------------


def test_voyage_embedder_sends_input_type_and_output_dimension(voyage_backend, settings, user):
    settings.EMBEDDING_DIM = 256
    settings.EMBEDDING_BATCH_SIZE = 3
    embedder = get_embedder()
    documents = embedder.embed(["我住在上海", "用户住在上海", "User likes tea", "用户喜欢吃辣"], kind="document",
                               ctx=CallContext(user_id=user.pk, phase="deep"))
    query = embedder.embed(["where does the user live"], kind="query")

    assert isinstance(embedder, VoyageEmbedder)
    requests = voyage_backend.voyage_requests
    assert [len(r.body["input"]) for r in requests] == [3, 1, 1]
    assert requests[0].body["model"] == "voyage-3.5-lite"
    assert requests[0].body["input_type"] == "document" and requests[2].body["input_type"] == "query"
    assert requests[0].body["output_dimension"] == 256
    assert requests[0].headers["authorization"] == "Bearer pa-fake-test-key"
    assert [len(v) for v in documents + query] == [256] * 5
    assert _cos(documents[0], documents[1]) > _cos(documents[0], documents[3])
    assert set(LLMCall.objects.values_list("backend", "task", "status")) == {("voyage", "embed", "ok")}
    assert LLMCall.objects.count() == 3


def test_voyage_server_errors_are_unavailable(voyage_backend, settings):
    settings.EMBEDDING_DIM = 64
    settings.EMBEDDING_MAX_RETRIES = 0
    voyage_backend.queue_error(500, endpoint="voyage")
    with pytest.raises(ProviderUnavailable):
        get_embedder().embed(["hello"])
    assert len(voyage_backend.voyage_requests) == 1
    assert LLMCall.objects.get().status == "error"


def test_voyage_rate_limit_is_retried_then_succeeds(voyage_backend, settings):
    settings.EMBEDDING_DIM = 64
    settings.EMBEDDING_MAX_RETRIES = 1
    voyage_backend.queue_rate_limit(endpoint="voyage")
    assert len(get_embedder().embed(["hello"])[0]) == 64
    assert len(voyage_backend.voyage_requests) == 2


def test_voyage_500_and_connection_errors_are_retried_with_backoff(voyage_backend, settings):
    settings.EMBEDDING_DIM = 64
    settings.EMBEDDING_MAX_RETRIES = 2
    voyage_backend.queue_error(500, endpoint="voyage")  # the SDK alone would give up on a 500
    assert len(get_embedder().embed(["hello"])[0]) == 64
    assert len(voyage_backend.voyage_requests) == 2

    settings.VOYAGE_BASE_URL = "http://127.0.0.1:9/v1"  # nothing listens: connection refused, every time
    settings.EMBEDDING_MAX_RETRIES = 1
    with pytest.raises(ProviderUnavailable, match="APIConnectionError"):
        get_embedder().embed(["hello"])


def test_voyage_retry_after_is_honoured(voyage_backend, settings):
    import time

    settings.EMBEDDING_DIM = 64
    settings.EMBEDDING_MAX_RETRIES = 1
    voyage_backend.queue_error(503, endpoint="voyage", headers={"retry-after": "1"})
    started = time.monotonic()
    assert len(get_embedder().embed(["hello"])[0]) == 64
    assert time.monotonic() - started >= 0.9 and len(voyage_backend.voyage_requests) == 2


def test_voyage_wrong_dimension_is_a_clear_error(voyage_backend, settings):
    settings.EMBEDDING_DIM = 64
    voyage_backend.queue_embeddings([[0.5, 0.5]], endpoint="voyage")
    with pytest.raises(EmbeddingDimensionMismatch, match="EMBEDDING_DIM is 64"):
        get_embedder().embed(["hello"])
