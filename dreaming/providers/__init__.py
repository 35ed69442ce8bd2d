"""Provider selection by settings: LLM_BACKEND (local | openai), EMBEDDING_BACKEND (local | openai | voyage)."""
from dreaming.protocol import (  # noqa: F401
    CallContext,
    Comparison,
    Dreamer,
    Embedder,
    ExtractedCandidate,
    MemoryRef,
    NightChanges,
    ProviderMisconfigured,
    ProviderUnavailable,
    SessionInfo,
    SessionReading,
    TriageResult,
    Turn,
    UnusableAnswer,
)


def get_dreamer() -> Dreamer:
    from django.conf import settings

    if settings.LLM_BACKEND == "openai":
        from dreaming.providers.openai_dreamer import OpenAIDreamer

        return OpenAIDreamer.from_settings()
    from dreaming.providers.local import LocalDreamer

    return LocalDreamer()


def get_embedder() -> Embedder:
    from django.conf import settings

    if settings.EMBEDDING_BACKEND == "voyage":
        from dreaming.providers.voyage_embedder import VoyageEmbedder

        return VoyageEmbedder.from_settings()
    if settings.EMBEDDING_BACKEND == "openai":
        from dreaming.providers.openai_embedder import OpenAIEmbedder

        return OpenAIEmbedder.from_settings()
    from dreaming.providers.local_embedder import LocalEmbedder

    return LocalEmbedder(dimensions=settings.EMBEDDING_DIM)
