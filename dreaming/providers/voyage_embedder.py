"""Embeddings from Voyage AI through the voyageai SDK (input_type document/query, output_dimension)."""
from __future__ import annotations

import time
from typing import Literal

from django.conf import settings
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from dreaming.models import LLMCall
from dreaming.providers.accounting import embedding_call_record
from dreaming.protocol import CallContext, ProviderUnavailable
from dreaming.providers.openai_embedder import batches, embedding_check_dimensions, embedding_context
from dreaming.engine.credentials import mask_secrets

# Models that accept output_dimension (256/512/1024/2048); older ones have one fixed size.
_FLEXIBLE_DIMENSION_PREFIXES = ("voyage-3.5", "voyage-3-large", "voyage-code-3", "voyage-4", "voyage-context-3")
FLEXIBLE_DIMENSIONS = (256, 512, 1024, 2048)
_FIXED_DIMENSIONS = {"voyage-3-lite": 512, "voyage-3": 1024, "voyage-2": 1024, "voyage-large-2": 1536,
                     "voyage-code-2": 1536, "voyage-multilingual-2": 1024, "voyage-law-2": 1024,
                     "voyage-finance-2": 1024, "voyage-large-2-instruct": 1024}


RETRY_AFTER_MAX = 30.0  # seconds: a longer Retry-After is treated as "down", not waited for
_backoff = wait_exponential(multiplier=0.5, max=8)


def _retry_after(exc: BaseException | None) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms / retry-after), if it said."""
    headers = {str(k).lower(): v for k, v in (getattr(exc, "headers", None) or {}).items()}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return min(float(headers[name]) * scale, RETRY_AFTER_MAX)
        except (KeyError, TypeError, ValueError):
            continue
    return None


def _wait(retry_state) -> float:
    asked = _retry_after(retry_state.outcome.exception() if retry_state.outcome else None)
    return asked if asked is not None else _backoff(retry_state)


def _retrying_client_class(voyageai):
    from voyageai import error

    retryable = (error.RateLimitError, error.ServiceUnavailableError, error.Timeout, error.ServerError,
                 error.APIConnectionError, error.TryAgain)

    class _RetryingClient(voyageai.Client):
        """voyageai.Client retrying 429, 5xx, timeouts and connection errors, honouring Retry-After."""

        def _make_retry_controller(self) -> Retrying:
            return Retrying(reraise=True, stop=stop_after_attempt(self.max_retries), wait=_wait,
                            retry=retry_if_exception_type(retryable))

    return _RetryingClient


def voyage_dimensions_problem(*, model: str, dimensions: int) -> str | None:
    """Why Voyage cannot make `dimensions`-d vectors with `model` (checked at start-up), or None."""
    if model.startswith(_FLEXIBLE_DIMENSION_PREFIXES):
        if dimensions not in FLEXIBLE_DIMENSIONS:
            return f"{model} makes {', '.join(map(str, FLEXIBLE_DIMENSIONS))}-d vectors, not EMBEDDING_DIM={dimensions}"
        return None
    native = _FIXED_DIMENSIONS.get(model)
    if native is not None and native != dimensions:
        return f"{model} makes {native}-d vectors only, not EMBEDDING_DIM={dimensions}"
    return None


class VoyageEmbedder:
    name = "voyage"

    def __init__(self, *, api_key: str, model: str, dimensions: int, batch_size: int = 64, timeout: float = 30.0,
                 max_retries: int = 2, base_url: str = "", send_dimensions: str = "auto"):
        import voyageai  # heavy import (tokenizers); only when Voyage is the configured backend

        self.model = model
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.send_dimensions = send_dimensions == "true" or (
            send_dimensions == "auto" and model.startswith(_FLEXIBLE_DIMENSION_PREFIXES)
        )
        # The SDK counts attempts, not retries (stop_after_attempt); its own policy skips 500 and
        # connection errors and ignores Retry-After, so the client is given ours (_RetryingClient).
        self.client = _retrying_client_class(voyageai)(api_key=api_key, max_retries=max_retries + 1, timeout=timeout,
                                                       base_url=base_url or None)

    @classmethod
    def from_settings(cls) -> "VoyageEmbedder":
        return cls(
            api_key=settings.VOYAGE_API_KEY,
            model=settings.EMBEDDING_MODEL,
            dimensions=settings.EMBEDDING_DIM,
            batch_size=settings.EMBEDDING_BATCH_SIZE,
            timeout=settings.EMBEDDING_TIMEOUT,
            max_retries=settings.EMBEDDING_MAX_RETRIES,
            base_url=settings.VOYAGE_BASE_URL,
            send_dimensions=settings.EMBEDDING_SEND_DIMENSIONS,
        )

    def embed(self, texts: list[str], *, kind: Literal["document", "query"] = "document",
              ctx: CallContext | None = None) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batches(texts, self.batch_size):
            vectors.extend(self._embed_batch(batch, kind=kind, ctx=embedding_context(ctx, kind)))
        return vectors

    def _embed_batch(self, batch: list[str], *, kind: str, ctx: CallContext) -> list[list[float]]:
        from voyageai.error import VoyageError

        params = {"output_dimension": self.dimensions} if self.send_dimensions else {}
        started = time.monotonic()
        try:
            result = self.client.embed([mask_secrets(text) or " " for text in batch], model=self.model,
                                       input_type=kind, **params)
            vectors = [list(vector) for vector in result.embeddings]
            if len(vectors) != len(batch):
                raise ProviderUnavailable(f"asked for {len(batch)} embeddings, got {len(vectors)}")
            embedding_check_dimensions(vectors, expected=self.dimensions, backend=self.name, model=self.model)
        except (VoyageError, ProviderUnavailable, AttributeError, KeyError, TypeError, ValueError) as exc:
            # AttributeError/KeyError/TypeError: the SDK met a response body that is not the Voyage format.
            embedding_call_record(ctx=ctx, backend=self.name, model=self.model, tokens=0,
                                  latency_ms=int((time.monotonic() - started) * 1000),
                                  status=LLMCall.Status.ERROR, error=f"{type(exc).__name__}: {exc}")
            if isinstance(exc, ProviderUnavailable):
                raise
            raise ProviderUnavailable(f"Voyage embedding request failed: {type(exc).__name__}: {exc}") from exc
        embedding_call_record(ctx=ctx, backend=self.name, model=self.model, tokens=int(result.total_tokens or 0),
                              latency_ms=int((time.monotonic() - started) * 1000))
        return vectors
