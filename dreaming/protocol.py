"""The two protocols the pipeline talks to models through, and the types they exchange.

The pipeline imports only this module and `dreaming.providers.get_dreamer / get_embedder`;
it never imports `openai` or `voyageai` itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

CATEGORIES = ("fact", "preference", "event", "emotion", "relation")
TRIAGE_KINDS = ("normal", "roleplay", "document", "coding", "translation")
SKIPPED_KINDS = TRIAGE_KINDS[1:]  # kinds nothing is learned from


class ProviderUnavailable(Exception):
    """Network or availability failure (timeout, 5xx, 429 after retries): retry later, stamp nothing."""


class ProviderMisconfigured(ProviderUnavailable):
    """The provider refuses every request the same way (bad key, unknown model without fallback, a
    parameter it rejects): no retry fixes it. Stop, give the work back without counting attempts."""


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
class SessionInfo:
    """What a session reader is told besides the turns: when it happened and which turns are new."""

    new_from_seq: int = 0  # turns with seq <= this were processed before: context, never quoted
    started_at: datetime | None = None


# --- model answers ---------------------------------------------------------------------------------
# Each answer a model gives is one pydantic model: its JSON schema is what the remote dreamer sends
# (providers.prompts.strict_schema), its validation is how the answer is read — tolerantly, since
# models stray: unknown categories collapse to "fact", a 0-10 importance is rescaled, one malformed
# candidate is dropped without sinking the others. The local engine builds the same types.

_CATEGORY_ALIASES = {
    "preferences": "preference", "like": "preference", "likes": "preference", "dislike": "preference",
    "events": "event", "plan": "event", "emotions": "emotion", "feeling": "emotion", "mood": "emotion",
    "relations": "relation", "relationship": "relation", "relationships": "relation", "family": "relation",
    "facts": "fact",
}
_RELATION_ALIASES = {"reinforce": "reinforces", "same": "reinforces", "duplicate": "reinforces",
                     "contradict": "contradicts", "conflicts": "contradicts", "update": "contradicts",
                     "adds detail": "adds_detail", "adds-detail": "adds_detail", "add_detail": "adds_detail",
                     "details": "adds_detail", "refines": "adds_detail"}
RELATIONS = ("new", "reinforces", "adds_detail", "contradicts")
MAX_CANDIDATES = 10
TEXT_LIMIT = 2000


def _text(value: Any, limit: int = TEXT_LIMIT) -> str:
    if not isinstance(value, str):
        raise ValueError("expected text")
    return value.strip()[:limit]


def _lenient_items(model: type[BaseModel], value: Any, *, limit: int | None = None) -> list:
    """The items of a list that validate as `model`; the others are dropped one by one."""
    if not isinstance(value, list):
        raise ValueError("expected a list")
    items = []
    for item in value:
        try:
            items.append(item if isinstance(item, model) else model.model_validate(item))
        except ValidationError:
            continue
        if limit is not None and len(items) == limit:
            break
    return items


class ExtractedCandidate(BaseModel):
    model_config = ConfigDict(frozen=True)

    seq: int | None = Field(None, description="the [seq=N] of the user turn the quote is copied from")
    quote: str = Field(description="the user's exact words, copied verbatim, containing the evidence for every detail")
    statement: str = Field(description="one third-person sentence about the user, in the quote's language")
    category: Literal["fact", "preference", "event", "emotion", "relation"] = "fact"
    importance: float = Field(0.5, description="0.0-1.0")
    user_initiated: bool = True

    @field_validator("quote", "statement", mode="before")
    @classmethod
    def _non_empty_text(cls, value: Any) -> str:
        text = _text(value)
        if not text:
            raise ValueError("empty")
        return text

    @field_validator("seq", mode="before")
    @classmethod
    def _seq(cls, value: Any) -> int | None:
        if isinstance(value, bool):
            return None
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            return int(value.strip()) if value.strip().lstrip("-").isdigit() else None
        return value if isinstance(value, int) else None

    @field_validator("category", mode="before")
    @classmethod
    def _category(cls, value: Any) -> str:
        name = value.strip().lower() if isinstance(value, str) else ""
        name = _CATEGORY_ALIASES.get(name, name)
        return name if name in CATEGORIES else "fact"

    @field_validator("importance", mode="before")
    @classmethod
    def _importance(cls, value: Any) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            return 0.5
        if number != number:  # NaN
            return 0.5
        if 1 < number <= 10:  # a 0-10 scale slipped through
            number /= 10
        return min(1.0, max(0.0, number))

    @field_validator("user_initiated", mode="before")
    @classmethod
    def _flag(cls, value: Any) -> bool:
        if isinstance(value, str):
            return value.strip().lower() not in ("false", "no", "0")
        return value if isinstance(value, bool) else True


class SessionReading(BaseModel):
    """The one answer about a session: what kind of conversation it is, and what the user disclosed
    (most important first). A skipped kind carries no candidates."""

    kind: Literal["normal", "roleplay", "document", "coding", "translation"] = "normal"
    reason: str = ""
    candidates: list[ExtractedCandidate] = Field(default_factory=list, description="0 to 10, most important first")

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError("expected an object")
        data = dict(data)
        for key in ("memories", "facts", "items", "results"):
            if "candidates" not in data and isinstance(data.get(key), list):
                data["candidates"] = data.pop(key)
        kind = data.get("kind") or data.get("type")
        # An unknown kind is read as normal: skipping is the costly mistake (a personal chat lost).
        data["kind"] = kind.strip().lower() if isinstance(kind, str) and kind.strip().lower() in TRIAGE_KINDS else "normal"
        data["reason"] = data["reason"].strip()[:500] if isinstance(data.get("reason"), str) else ""
        data["candidates"] = _lenient_items(ExtractedCandidate, data.get("candidates") or [], limit=MAX_CANDIDATES)
        return data


@dataclass(frozen=True)
class MemoryRef:
    id: int
    statement: str
    category: str
    said_at: datetime | None = None  # when the user last said it (the model weighs plan against fact)


class Comparison(BaseModel):
    """How a candidate statement relates to the existing memories it was shown. "adds_detail" carries
    the memory's new wording; "wait" is what a missing or unusable verdict means: decide another night."""

    model_config = ConfigDict(frozen=True)

    index: int = Field(description="index into the candidates given")
    relation: Literal["new", "reinforces", "adds_detail", "contradicts", "wait"]
    memory_id: int | None = Field(None, description="the existing memory, null for new")
    statement: str | None = Field(None, description="for adds_detail: the memory rewritten with the new detail")
    reason: str = ""

    @field_validator("relation", mode="before")
    @classmethod
    def _relation(cls, value: Any) -> str:
        name = value.strip().lower() if isinstance(value, str) else ""
        return _RELATION_ALIASES.get(name, name)

    @field_validator("reason", mode="before")
    @classmethod
    def _reason(cls, value: Any) -> str:
        return value.strip()[:500] if isinstance(value, str) else ""

    @field_validator("statement", mode="before")
    @classmethod
    def _statement(cls, value: Any) -> str | None:
        return (value.strip()[:TEXT_LIMIT] or None) if isinstance(value, str) else None


class CompareAnswer(BaseModel):
    results: list[Comparison] = Field(description="one per candidate index")

    @field_validator("results", mode="before")
    @classmethod
    def _results(cls, value: Any) -> list:
        return _lenient_items(Comparison, value)

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        if isinstance(data, dict) and "results" not in data:
            for key in ("comparisons", "items", "data"):
                if isinstance(data.get(key), list):
                    return {"results": data[key]}
        return data


class MergeAnswer(BaseModel):
    statement: str

    _text = field_validator("statement", mode="before")(ExtractedCandidate._non_empty_text.__func__)


class NarrateAnswer(BaseModel):
    narrative: str

    _text = field_validator("narrative", mode="before")(ExtractedCandidate._non_empty_text.__func__)


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
    # True when a call waits on the network (worth running several at once); False for CPU-bound
    # local rules, which the night runs one user at a time.
    calls_network: bool
    # True for a backend that costs money per call: light sleep runs the free rule pre-check first and
    # spends no call on a session the rules already know to skip. The local engine *is* the rules.
    paid: bool
    # True when reply() puts MEMORY.md in the model's instructions, so recall need not return it again.
    reads_memory_md: bool

    def read_session(self, *, turns: list[Turn], ctx: CallContext, info: SessionInfo = SessionInfo()) -> SessionReading:
        """Triage and extraction of one session in one answer (one model call for a remote backend)."""
        ...

    def compare(
        self, *, statements: list[str], memories: list[MemoryRef], ctx: CallContext,
        said_at: list[datetime | None] | None = None,  # when each statement was last said
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
    # Every embedder accounts its own calls from ctx (the run's embedding_calls; remote ones an LLMCall row).
    # An offline one says `calls_network = False`: light sleep then embeds users' statements together.


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
