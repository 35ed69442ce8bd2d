"""Embeddings from any OpenAI-compatible /embeddings endpoint (OpenAI, OpenRouter, vLLM, Ollama, llama.cpp)."""
from __future__ import annotations

import time
from typing import Literal

import openai
from django.conf import settings

from dreaming.models import LLMCall
from dreaming.providers.accounting import embedding_call_record
from dreaming.protocol import CallContext, ProviderUnavailable
from dreaming.engine.credentials import mask_secrets


class EmbeddingDimensionMismatch(ProviderUnavailable):
    """The backend returned vectors of another size than the database column holds (EMBEDDING_DIM)."""


def embedding_check_dimensions(vectors: list[list[float]], *, expected: int, backend: str, model: str) -> None:
    for vector in vectors:
        if len(vector) != expected:
            raise EmbeddingDimensionMismatch(
                f"{backend} model {model!r} returned {len(vector)}-dimensional vectors but EMBEDDING_DIM is "
                f"{expected}: set EMBEDDING_DIM={len(vector)} and run `manage.py reembed`, or pick a model "
                f"that supports {expected} dimensions"
            )


def embedding_context(ctx: CallContext | None, kind: str) -> CallContext:
    # Recording the cost matters even when the caller did not say who it was for.
    return ctx or CallContext(phase="recall" if kind == "query" else "light")


def batches(texts: list[str], size: int):
    for start in range(0, len(texts), size):
        yield texts[start : start + size]


class OpenAIEmbedder:
    name = "openai"

    def __init__(self, *, base_url: str, api_key: str, model: str, dimensions: int, batch_size: int = 64,
                 timeout: float = 30.0, max_retries: int = 2, send_dimensions: str = "auto"):
        self.model = model
        self.dimensions = dimensions
        self.batch_size = batch_size
        # Only the text-embedding-3 family accepts `dimensions`; other servers may reject it.
        self.send_dimensions = send_dimensions == "true" or (send_dimensions == "auto" and "text-embedding-3" in model)
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout,
                                    max_retries=max_retries)

    @classmethod
    def from_settings(cls) -> "OpenAIEmbedder":
        return cls(
            base_url=settings.EMBEDDING_BASE_URL,
            api_key=settings.EMBEDDING_API_KEY,
            model=settings.EMBEDDING_MODEL,
            dimensions=settings.EMBEDDING_DIM,
            batch_size=settings.EMBEDDING_BATCH_SIZE,
            timeout=settings.EMBEDDING_TIMEOUT,
            max_retries=settings.EMBEDDING_MAX_RETRIES,
            send_dimensions=settings.EMBEDDING_SEND_DIMENSIONS,
        )

    def embed(self, texts: list[str], *, kind: Literal["document", "query"] = "document",
              ctx: CallContext | None = None) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batches(texts, self.batch_size):
            vectors.extend(self._embed_batch(batch, ctx=embedding_context(ctx, kind)))
        return vectors

    def _embed_batch(self, batch: list[str], *, ctx: CallContext) -> list[list[float]]:
        params = {"dimensions": self.dimensions} if self.send_dimensions else {}
        # Empty strings are rejected by OpenAI; a space embeds as "nothing" just as well.
        inputs = [mask_secrets(text) or " " for text in batch]
        started = time.monotonic()
        try:
            response = self.client.embeddings.create(input=inputs, model=self.model, encoding_format="float", **params)
            data = sorted(response.data, key=lambda item: item.index)
            vectors = [list(item.embedding) for item in data]
            if len(vectors) != len(batch):
                raise ProviderUnavailable(f"asked for {len(batch)} embeddings, got {len(vectors)}")
            embedding_check_dimensions(vectors, expected=self.dimensions, backend=self.name, model=self.model)
        except (openai.APIError, ProviderUnavailable, TypeError, ValueError) as exc:
            embedding_call_record(ctx=ctx, backend=self.name, model=self.model, tokens=0,
                                  latency_ms=int((time.monotonic() - started) * 1000),
                                  status=LLMCall.Status.ERROR, error=f"{type(exc).__name__}: {exc}")
            if isinstance(exc, ProviderUnavailable):
                raise
            raise ProviderUnavailable(f"embedding request failed: {type(exc).__name__}: {exc}") from exc
        usage = getattr(response, "usage", None)
        tokens = int(getattr(usage, "total_tokens", 0) or getattr(usage, "prompt_tokens", 0) or 0)
        embedding_call_record(ctx=ctx, backend=self.name, model=self.model, tokens=tokens,
                              latency_ms=int((time.monotonic() - started) * 1000))
        return vectors
