"""The embedding space guard: vectors made by one embedder are never compared with another's.

The database records the embedder (backend, model, dimensions) its vectors were made with
(EmbeddingSpace, written by `migrate` and `reembed`). Light, deep and weekly sleep and recall call
`embedding_space_check()` first: with a different embedder configured they refuse — no claims, no
model calls — with one readable error that says what to run. A database without any vector has
nothing to protect: it simply adopts the configured embedder.
"""
from __future__ import annotations

from django.conf import settings

from dreaming.models import Candidate, EmbeddingSpace, Memory
from dreaming.protocol import ProviderMisconfigured


class EmbeddingSpaceMismatch(ProviderMisconfigured):
    """The configured embedder is not the one the stored vectors were made with."""


def embedding_space_configured() -> tuple[str, str, int]:
    return settings.EMBEDDING_BACKEND, settings.EMBEDDING_MODEL, settings.EMBEDDING_DIM


def embedding_space_problem() -> str | None:
    """What is wrong with the configured embedder for the stored vectors, or None."""
    backend, model, dimensions = embedding_space_configured()
    recorded = EmbeddingSpace.objects.order_by("pk").first()
    if recorded is not None and (recorded.backend, recorded.model, recorded.dimensions) == (backend, model, dimensions):
        return None
    # migrate records the space; a database without the row (emptied by a flush, or restored from a
    # dump made before the guard existed) takes the configured embedder as the one its vectors used.
    if recorded is None or not (Memory.objects.filter(embedding__isnull=False).exists()
            or Candidate.objects.filter(embedding__isnull=False).exists()):
        embedding_space_record()  # nothing stored yet: the configured embedder defines the space
        return None
    return (f"the stored vectors were made with {recorded}, but the configured "
            f"embedder is {backend} {model} ({dimensions} dims): run `manage.py reembed` (or restore the "
            f"EMBEDDING_* settings) before dreaming or recall can run")


def embedding_space_check() -> None:
    problem = embedding_space_problem()
    if problem:
        raise EmbeddingSpaceMismatch(problem)


# Configured embedders found matching in this process. The configuration only changes with a restart
# and `reembed` only ever makes the space match, so recall (a hot path) checks once per process.
_matching: set[tuple[str, str, int]] = set()


def embedding_space_check_cached() -> None:
    configured = embedding_space_configured()
    if configured not in _matching:
        embedding_space_check()
        _matching.add(configured)


def embedding_space_record() -> None:
    """The configured embedder is now the one the vectors are made with (`reembed`, a fresh database)."""
    backend, model, dimensions = embedding_space_configured()
    EmbeddingSpace.objects.update_or_create(pk=EmbeddingSpace.objects.order_by("pk").values_list("pk", flat=True).first(),
                                            defaults={"backend": backend, "model": model, "dimensions": dimensions})
