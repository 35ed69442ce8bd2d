"""LocalDreamer: every dreamer task on the built-in rules engine (offline, deterministic, EN + ZH)."""
from __future__ import annotations

from collections.abc import Callable

from dreaming.engine.compare import compare_statements, merge_statements
from dreaming.engine.extract import extract_candidates
from dreaming.engine.narrate import narrate_changes, reply_offline
from dreaming.engine.triage import Disclosure, triage_turns
from dreaming.providers.base import (
    CallContext,
    Comparison,
    ExtractedCandidate,
    MemoryRef,
    NightChanges,
    TriageResult,
    Turn,
)


class LocalDreamer:
    name = "local"

    def triage(self, *, turns: list[Turn], ctx: CallContext | None = None) -> TriageResult:
        found = extract_candidates(turns, limit=50)
        disclosures = [Disclosure(c.seq, c.quote, c.importance, c.user_initiated) for c in found]
        return triage_turns(turns, disclosures=disclosures)

    def extract(self, *, turns: list[Turn], ctx: CallContext | None = None) -> list[ExtractedCandidate]:
        return extract_candidates(turns)

    def compare(
        self, *, statements: list[str], memories: list[MemoryRef], ctx: CallContext | None = None
    ) -> list[Comparison]:
        return compare_statements(statements, memories)

    def merge(self, *, statements: list[str], ctx: CallContext | None = None) -> str:
        return merge_statements(statements)

    def narrate(self, *, changes: NightChanges, ctx: CallContext | None = None) -> str:
        return narrate_changes(changes)

    def reply(
        self,
        *,
        turns: list[Turn],
        memory_md: str,
        recall: Callable[[str], list[dict]],
        ctx: CallContext | None = None,
    ) -> str:
        return reply_offline(turns=turns, recall=recall)
