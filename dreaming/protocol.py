"""The two protocols the pipeline talks to models through, and the types they exchange.

The pipeline imports only this module and `dreaming.providers.get_dreamer / get_embedder`;
it never imports `openai` or `voyageai` itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Literal, Protocol

CATEGORIES = ("fact", "preference", "event", "emotion", "relation")
TRIAGE_KINDS = ("normal", "roleplay", "document", "coding", "translation")


class ProviderUnavailable(Exception):
    """Network or availability failure (timeout, 5xx, 429 after retries): retry later, stamp nothing."""


class UnusableAnswer(Exception):
    """The model answered but the answer cannot be used (not JSON, wrong shape): treat as zero results."""


@dataclass(frozen=True)
class Turn:
    seq: int
    role: Literal["user", "assistant", "system"]
    content: str
    created_at: datetime | None = None


@dataclass(frozen=True)
class CallContext:
    """Who a model call is for, so it can be recorded as an LLMCall (user, run, phase)."""

    user_id: int | None = None
    run_id: int | None = None
    phase: str = "light"


@dataclass(frozen=True)
class TriageResult:
    kind: str  # one of TRIAGE_KINDS
    reason: str


@dataclass(frozen=True)
class ExtractedCandidate:
    quote: str  # the user's verbatim words
    statement: str  # normalized third-person statement in the user's language
    category: str  # one of CATEGORIES (unknown values collapse to "fact")
    importance: float  # 0..1
    user_initiated: bool  # raised by the user, vs a passing answer to the assistant
    seq: int | None = None  # the user turn it came from, when the backend knows


@dataclass(frozen=True)
class MemoryRef:
    id: int
    statement: str
    category: str


@dataclass(frozen=True)
class Comparison:
    """How a candidate statement relates to the existing memories it was shown."""

    index: int  # index into the candidate statements given
    relation: Literal["new", "reinforces", "contradicts"]
    memory_id: int | None = None
    reason: str = ""


@dataclass
class NightChanges:
    learned: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    changed: list[tuple[str, str]] = field(default_factory=list)  # (old, new)
    pending: list[str] = field(default_factory=list)
    forgotten: int = 0
    language: str = "en"


class Dreamer(Protocol):
    """The model tasks of dreaming (and the chat reply). One implementation per backend."""

    name: str

    def triage(self, *, turns: list[Turn], ctx: CallContext) -> TriageResult: ...

    def extract(self, *, turns: list[Turn], ctx: CallContext) -> list[ExtractedCandidate]: ...

    def compare(
        self, *, statements: list[str], memories: list[MemoryRef], ctx: CallContext
    ) -> list[Comparison]: ...

    def merge(self, *, statements: list[str], ctx: CallContext) -> str: ...

    def narrate(self, *, changes: NightChanges, ctx: CallContext) -> str: ...

    def reply(
        self,
        *,
        turns: list[Turn],
        memory_md: str,
        recall: Callable[[str], list[dict]],
        ctx: CallContext,
    ) -> str: ...


class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(
        self,
        texts: list[str],
        *,
        kind: Literal["document", "query"] = "document",
        ctx: CallContext | None = None,  # who it is for: counted in the run, remote calls become LLMCall rows
    ) -> list[list[float]]: ...


RECALL_MAX_K = 50
# The one definition of the recall tool the chat model is offered (OpenAI tool format).
RECALL_TOOL: dict = {
    "type": "function",
    "function": {
        "name": "recall_memory",
        "description": (
            "Search what you remember about the user beyond the MEMORY.md in your instructions: "
            "names, dates, events, preferences they mentioned in earlier conversations. Call it when "
            "the user refers to something you should know but MEMORY.md does not say. Returns both "
            "memories (what you learned, with the date the user said it and their own words) and "
            "excerpts of the user's own past messages (kind \"excerpt\": \"On 12 May 2023 you said: ...\"), "
            "best first."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What to look for, in the user's language, e.g. 'name of the user's dog' or '女儿的生日'.",
                },
                "k": {"type": "integer", "minimum": 1, "maximum": RECALL_MAX_K, "description": "How many results, memories and excerpts together (default 10)."},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}
