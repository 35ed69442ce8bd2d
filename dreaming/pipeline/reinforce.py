"""What deep sleep's reinforcements read of the memories they join, read once per compare batch.

A reinforcement (a cluster saying what an active memory says) needs three things of its memory: the
sessions that already count towards its recurrence (its candidates' and its sources' sessions), its
sources (the new quotes join them, MAX_SOURCES in all) and the user's latest applied verdict on it.
Read per reinforcement, after writing the night's waiting rows so they could be read back, that was
a flush and about eight statements each. `Reinforced.load` reads them for every memory a compare
batch may reinforce in three statements, and `joined` keeps them current as the batch goes (two
clusters may reinforce the same memory), so a reinforcement writes only its memory's UPDATE; its
sources go out with the batch's writes (NightWrites).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F

from dreaming.memory.feedback import latest_verdict_subquery
from dreaming.models import Candidate, Memory, MemorySource


@dataclass
class _Known:
    candidate_sessions: set = field(default_factory=set)
    sources: list[MemorySource] = field(default_factory=list)  # each with `session_of`: its message's session
    verdict: str | None = None
    joined: bool = False  # a cluster of this batch reinforced it already

    @property
    def session_ids(self) -> set:
        return self.candidate_sessions | {s.session_of for s in self.sources if s.session_of is not None}


class Reinforced:
    """The memories a batch may reinforce, as the reinforcements read them (see the module docstring)."""

    def __init__(self, known: dict[int, _Known]):
        self.known = known

    @classmethod
    def load(cls, memory_ids: set[int]) -> Reinforced:
        known: dict[int, _Known] = defaultdict(_Known)
        if not memory_ids:
            return cls(known)
        for memory_id, session_id in Candidate.objects.filter(memory_id__in=memory_ids, session__isnull=False) \
                .values_list("memory_id", "session_id"):
            known[memory_id].candidate_sessions.add(session_id)
        # The order memory_sources_merge keeps among sources said at the same moment: the oldest row first.
        for source in MemorySource.objects.filter(memory_id__in=memory_ids).annotate(
                session_of=F("message__session_id")).order_by("said_at", "pk"):
            known[source.memory_id].sources.append(source)
        verdicts = Memory.objects.filter(pk__in=memory_ids).annotate(
            verdict=latest_verdict_subquery(applied_only=True)).values_list("pk", "verdict")
        for memory_id, verdict in verdicts:
            known[memory_id].verdict = verdict
        return cls(known)

    def session_ids(self, memory: Memory) -> set:
        """Sessions that already count towards the memory's recurrence (its candidates and its sources)."""
        return self.known[memory.pk].session_ids

    def verdict(self, memory: Memory) -> str | None:
        return self.known[memory.pk].verdict

    def sources(self, memory: Memory) -> list[MemorySource]:
        return list(self.known[memory.pk].sources)

    def joined_before(self, memory: Memory) -> bool:
        """A cluster of this batch reinforced the memory already (its new sources may still be waiting)."""
        return self.known[memory.pk].joined

    def joined(self, memory: Memory, *, candidates: list[Candidate], fresh: list[MemorySource],
               dropped: list[MemorySource]) -> None:
        """The candidates now point at the memory; `fresh` sources joined it and `dropped` left it."""
        known = self.known[memory.pk]
        known.joined = True
        known.candidate_sessions |= {c.session_id for c in candidates if c.session_id is not None}
        message_session = {c.message_id: c.message.session_id for c in candidates if c.message_id is not None}
        for source in fresh:
            source.session_of = message_session.get(source.message_id)
        gone = {id(s) for s in dropped}
        known.sources = [s for s in known.sources if id(s) not in gone] + fresh


def memory_sources_merge(
    *, memory: Memory, candidates: list[Candidate], existing: list[MemorySource],
) -> tuple[list[MemorySource], list[MemorySource]]:
    """The candidates' quotes as new sources of the memory, and the existing sources to drop: the
    first evidence and the newest are kept, MAX_SOURCES in all."""
    seen = {(s.message_id, s.quote) for s in existing}
    fresh = []
    for candidate in candidates:
        key = (candidate.message_id, candidate.quote)
        if key not in seen:
            seen.add(key)
            fresh.append(MemorySource(memory=memory, message_id=candidate.message_id, quote=candidate.quote,
                                      said_at=candidate.said_at))
    everything = sorted(existing + fresh, key=lambda s: s.said_at)
    keep = everything if len(everything) <= Memory.MAX_SOURCES else [everything[0]] + everything[-(Memory.MAX_SOURCES - 1):]
    keep_ids = {id(s) for s in keep}
    return [s for s in fresh if id(s) in keep_ids], [s for s in existing if id(s) not in keep_ids]
