"""LocalDreamer: every dreamer task on the built-in rules engine (offline, deterministic, EN + ZH)."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from dreaming.engine.compare import compare_statements, merge_statements
from dreaming.engine.extract import extract_candidates
from dreaming.engine.selection import MAX_CANDIDATES, few_from_long_turns, most_important
from dreaming.engine.narrate import narrate_changes, reply_offline
from dreaming.engine.self_disclosure import without_request
from dreaming.engine.self_statements import kept_session_disclosures, says_who, self_statements
from dreaming.engine.triage import Disclosure, SessionSignals, session_signals, triage_turns
from dreaming.engine.triage_model import model_triage, triage_model
from dreaming.protocol import (
    CallContext,
    Comparison,
    ExtractedCandidate,
    MemoryRef,
    NightChanges,
    SessionInfo,
    SKIPPED_KINDS,
    SessionReading,
    TriageResult,
    Turn,
)




@lru_cache(maxsize=64)
def _candidates(turns: tuple[Turn, ...]) -> tuple[ExtractedCandidate, ...]:
    # Light sleep asks for triage and then extraction of the same session: extract once, keep all.
    return tuple(extract_candidates(list(turns), limit=10_000))


def triage_by_rules(turns: list[Turn]) -> TriageResult:
    """The hand rules' verdict alone, without the learned model: what the free pre-check in front of a
    remote model trusts (a code fence, a translation request), never a guess from word statistics."""
    found = _candidates(tuple(turns))
    return triage_turns(turns, disclosures=[Disclosure(c.seq, c.quote, c.importance, c.user_initiated) for c in found])


def session_reading(turns: list[Turn]) -> SessionSignals:
    """The triage rules' reading of a session, with the self-disclosures the extractor finds in it."""
    return _reading(tuple(turns))


@lru_cache(maxsize=64)
def _reading(turns: tuple[Turn, ...]) -> SessionSignals:
    found = _candidates(turns)
    return session_signals(list(turns), disclosures=[Disclosure(c.seq, c.quote, c.importance, c.user_initiated)
                                                     for c in found])


class LocalDreamer:
    name = "local"
    calls_network = False
    paid = False  # the rules engine is its own pre-check
    reads_memory_md = False  # reply_offline answers only from what recall returns

    def read_session(self, *, turns: list[Turn], ctx: CallContext | None = None,
                     info: SessionInfo = SessionInfo()) -> SessionReading:
        triage = self.triage(turns=turns, ctx=ctx)
        if triage.kind in SKIPPED_KINDS:
            return SessionReading(kind=triage.kind, reason=triage.reason)
        # Quotable are only the new turns; the ones before are context (read, never quoted).
        new = [t for t in turns if t.seq > info.new_from_seq]
        # Once a story is asked for or a roleplay begins, the first person of the turns after it is a character
        # ("continue: I love my girlfriend, Sasuke…"): of those only what is said out of character is the user's.
        fiction = set(session_reading(turns).fiction)
        found = [without_request(c) for c in _candidates(tuple(turns))
                 if (c.seq is None or c.seq > info.new_from_seq) and c.seq not in fiction]
        found += self_statements([t for t in new if t.seq in fiction], kind="roleplay")
        # Who the user says they are inside a request ("I'm a nurse, write me…") the conversational rules pass over.
        added = kept_session_disclosures([t for t in new if t.seq not in fiction], found=found)
        candidates = few_from_long_turns(most_important(found, limit=MAX_CANDIDATES) + added, turns, says_who=says_who)
        return SessionReading(kind=triage.kind, reason=triage.reason, candidates=candidates)

    def triage(self, *, turns: list[Turn], ctx: CallContext | None = None) -> TriageResult:
        model = triage_model()
        if model is None or not any(t.role == "user" and t.content.strip() for t in turns):
            return triage_by_rules(turns)
        return model_triage(model, turns, session_reading(turns))

    def extract(self, *, turns: list[Turn], ctx: CallContext | None = None) -> list[ExtractedCandidate]:
        return most_important(list(_candidates(tuple(turns))), limit=MAX_CANDIDATES)

    def compare(
        self, *, statements: list[str], memories: list[MemoryRef], ctx: CallContext | None = None,
        said_at: list | None = None,
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
