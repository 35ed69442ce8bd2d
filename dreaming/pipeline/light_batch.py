"""Light sleep's batch: what a sweep reads once for all the sessions it claimed, and how it writes what
they gave together.

Read once per batch (`batch_load`): the sessions, all their messages, their users' tombstones (a
tombstone added while the batch is dreamed is still honoured: deep sleep checks every candidate again).
Written together (`outcomes_save`), in one transaction: the memory switch of the batch's users read at
write time (memory may have been switched off while the model was thinking), every stamp in one
conditional UPDATE (only the sessions whose claim we still hold), their candidates in one INSERT, the
kept sessions' new user turns indexed for excerpts in one UPDATE. A batch whose transaction fails is
written again session by session, so only the session that broke it fails. Embeddings: one call per
write (`outcomes_embed`), or one per user of it with a remote embedder (a paid call is billed to its user).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from chat.models import ChatSession, Message
from dreaming.memory.excerpts import excerpts_index_many
from dreaming.memory.tombstones import TombstoneIndex, tombstone_indexes
from dreaming.models import Candidate, MemorySettings, Phase
from dreaming.pipeline.claims import Stamp, claims_stamp
from dreaming.pipeline.night_writes import rows_insert
from dreaming.protocol import (
    CallContext,
    Embedder,
    ProviderMisconfigured,
    ProviderUnavailable,
)


@dataclass
class SessionOutcome:
    session_id: int
    kind: str = ChatSession.Triage.NORMAL
    reason: str = ""
    skipped: bool = False
    processed_seq: int = 0
    candidates: list[Candidate] = field(default_factory=list)
    sensitive_dropped: int = 0
    sensitive_by_kind: dict[str, int] = field(default_factory=dict)
    unverified_rejected: int = 0
    tombstoned_dropped: int = 0
    bad_candidates: int = 0
    note: str = ""
    keep_triage: bool = False
    # The new user turns recall may show as excerpts once the session is stored as kept.
    searchable: list[Message] = field(default_factory=list)
    # The assistant's turn each of them replied to, by message id (read from the session's loaded messages).
    replied_to: dict[int, str] = field(default_factory=dict)
    # An unexpected error after the reading (its embedding): the session fails instead of being stored.
    error: Exception | None = None

    def count_sensitive(self, kind: str) -> None:
        self.sensitive_dropped += 1
        self.sensitive_by_kind[kind] = self.sensitive_by_kind.get(kind, 0) + 1

    def add_note(self, note: str) -> None:
        self.note = f"{self.note}; {note}" if self.note else note

    @property
    def kept(self) -> list[Candidate]:
        return [c for c in self.candidates if c.status == Candidate.Status.PENDING]

    @property
    def candidates_created(self) -> int:
        return len(self.kept)

    def counters(self) -> dict:
        counters = {
            "sensitive_dropped": self.sensitive_dropped,
            "sensitive_by_kind": self.sensitive_by_kind,
            "unverified_rejected": self.unverified_rejected,
            "tombstoned_dropped": self.tombstoned_dropped,
            "candidates_created": self.candidates_created,
        }
        if self.skipped:
            counters |= {"sessions_skipped": 1, "skipped_by_kind": {self.kind: 1}}
        else:
            counters["sessions_done"] = 1
        return counters

    def stamp(self) -> Stamp:
        return Stamp(session_id=self.session_id, processed_seq=self.processed_seq, note=self.note,
                     keep_triage=self.keep_triage, kind=self.kind, reason=self.reason, skipped=self.skipped)


Done = tuple[ChatSession, SessionOutcome]


def counters_sum(outcomes: list[SessionOutcome]) -> dict:
    """The outcomes' run counters added up (numbers summed, per-kind dicts merged), for one run_add."""
    total: dict = {}
    for outcome in outcomes:
        for name, value in outcome.counters().items():
            if isinstance(value, dict):
                merged = total.setdefault(name, {})
                for key, n in value.items():
                    merged[key] = merged.get(key, 0) + n
            else:
                total[name] = total.get(name, 0) + value
    return total


@dataclass
class BatchInputs:
    sessions: dict[int, ChatSession]
    messages: dict[int, list[Message]]  # by session id, in seq order
    tombstones: dict[int, TombstoneIndex]  # by user id

    def tombstones_of(self, user_id: int) -> TombstoneIndex:
        return self.tombstones.get(user_id) or TombstoneIndex([])


def batch_load(*, session_ids: list[int]) -> BatchInputs:
    """Three queries for the whole batch: its sessions, their messages, their users' tombstones."""
    sessions = ChatSession.objects.in_bulk(session_ids)
    messages: dict[int, list[Message]] = defaultdict(list)
    for message in Message.objects.filter(session_id__in=list(sessions)).defer("search").order_by("session_id", "seq"):
        messages[message.session_id].append(message)
    tombstones = tombstone_indexes(user_ids={s.user_id for s in sessions.values()})
    return BatchInputs(sessions=sessions, messages=messages, tombstones=tombstones)


def outcomes_embed(*, done: list[Done], embedder: Embedder, run_id: int) -> None:
    """Embed every kept candidate of the batch: one call per user with a remote embedder (its calls are
    billed to a user), one call for all with an offline one (`calls_network = False`: nothing to bill).
    An embedder that is unavailable leaves them without vectors (deep sleep embeds them before it
    compares: the extraction is paid for); a misconfigured one goes up (the sweep stops); any other
    error fails the sessions of that call."""
    per_user = getattr(embedder, "calls_network", True)
    by_user: dict[int | None, list[tuple[SessionOutcome, Candidate]]] = defaultdict(list)
    for session, outcome in done:
        for candidate in outcome.kept:
            by_user[session.user_id if per_user else None].append((outcome, candidate))
    for user_id, items in by_user.items():
        outcomes = list({id(o): o for o, _ in items}.values())
        ctx = CallContext(user_id=user_id, run_id=run_id, phase=Phase.LIGHT)
        # A statement said again (in another session, by another user) is embedded once.
        texts = list(dict.fromkeys(c.statement for _, c in items))
        try:
            vectors = embedder.embed(texts, kind="document", ctx=ctx)
            if len(vectors) != len(texts):
                raise ValueError(f"embedder returned {len(vectors)} vectors for {len(texts)} statements")
        except ProviderMisconfigured:
            raise
        except ProviderUnavailable as exc:
            for outcome in outcomes:
                outcome.add_note(f"embedding failed, candidates stored without vectors: {exc}")
            continue
        except Exception as exc:  # noqa: BLE001 — any embedder error fails only these sessions
            for outcome in outcomes:
                outcome.error = exc
            continue
        by_text = dict(zip(texts, vectors))
        for _, candidate in items:
            candidate.embedding = by_text[candidate.statement]


@dataclass
class Saved:
    """What became of a batch's outcomes at write time."""

    stored: list[Done] = field(default_factory=list)
    memory_off: list[ChatSession] = field(default_factory=list)  # nothing stored: their claims are given back
    claim_lost: list[ChatSession] = field(default_factory=list)  # another worker has them: results thrown away
    failed: list[tuple[ChatSession, Exception]] = field(default_factory=list)

    def add(self, other: Saved) -> None:
        self.stored += other.stored
        self.memory_off += other.memory_off
        self.claim_lost += other.claim_lost
        self.failed += other.failed


def outcomes_save(*, done: list[Done], now: datetime, worker: str, claimed_at: datetime) -> Saved:
    """Store the batch in one transaction; if it fails, again one session per transaction."""
    try:
        with transaction.atomic():
            return _outcomes_write(done=done, now=now, worker=worker, claimed_at=claimed_at)
    except Exception as exc:  # noqa: BLE001 — a failed batch is redone one session at a time
        if len(done) == 1:
            return Saved(failed=[(done[0][0], exc)])
    saved = Saved()
    for one in done:
        saved.add(outcomes_save(done=[one], now=now, worker=worker, claimed_at=claimed_at))
    return saved


def _outcomes_write(*, done: list[Done], now: datetime, worker: str, claimed_at: datetime) -> Saved:
    off = MemorySettings.users_off(user_ids={session.user_id for session, _ in done})
    writable = [(s, o) for s, o in done if s.user_id not in off]
    stamped = claims_stamp(stamps=[o.stamp() for _, o in writable], worker=worker, claimed_at=claimed_at,
                           dreamed_at=now)
    stored = [(s, o) for s, o in writable if s.pk in stamped]
    candidates = [c for _, o in stored for c in o.candidates]
    rows_insert(objects=candidates)
    indexed = [o for _, o in stored if not o.skipped]
    excerpts_index_many(turns=[(s.user_id, o.searchable) for s, o in stored if not o.skipped],
                        replied_to={pk: text for o in indexed for pk, text in o.replied_to.items()})
    return Saved(stored=stored, memory_off=[s for s, _ in done if s.user_id in off],
                 claim_lost=[s for s, _ in writable if s.pk not in stamped])
