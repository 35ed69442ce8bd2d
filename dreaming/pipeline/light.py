"""Light sleep: sweep idle chat sessions and turn what the user said into verified candidates.

Nothing here runs while the user chats. A sweep claims idle sessions (dreaming.pipeline.claims), then for each
one reads only the part not processed yet, keeps sensitive content and secrets away from the model,
triages and extracts candidates in one model call, verifies every quote against the stored user
message and checks that it supports its statement, and stores the candidates together with the session's "done" stamp in one short
transaction. Deep sleep decides later which candidates become memories.

Failure rules (no session is lost): zero candidates stamps the session; an unusable answer counts
an attempt (given up after DREAM_MAX_ATTEMPTS, re-queued by `dream --retry-failed`), and
DREAM_UNUSABLE_STREAK of them in a row stop the sweep with every claim given back; a provider that
is unavailable or misconfigured stamps nothing, gives the claims back and stops the sweep (the next
sweep retries); one bad candidate is dropped on its own; an unexpected error in one session is
recorded on it and the sweep goes on.
"""
from __future__ import annotations

import logging
import os
import re
import socket
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.pipeline.claims import claim_keep_failed, claim_release, claim_stamp, sessions_claim, sessions_claimable
from dreaming.engine.self_statements import self_statements
from dreaming.models import Candidate, DreamRun, MemorySettings, Phase
from dreaming.providers import get_dreamer, get_embedder
from dreaming.providers.embedding_space import embedding_space_problem
from dreaming.protocol import (
    CallContext,
    Dreamer,
    Embedder,
    ProviderMisconfigured,
    ProviderUnavailable,
    SessionInfo,
    SessionReading,
    Turn,
    UnusableAnswer,
)
from dreaming.pipeline.runs import run_add, run_finish, run_start, runs_fail_abandoned
from dreaming.engine.sensitive import mask_secrets, redact_sensitive
from dreaming.memory.excerpts import excerpts_index
from dreaming.pipeline.triage_rules import triage_precheck
from dreaming.pipeline.verify import candidates_verify

logger = logging.getLogger(__name__)

SKIPPED_KINDS = {str(kind) for kind in ChatSession.SKIPPED_KINDS}
# Already-processed turns shown to the extractor before the new part, so a resumed conversation
# is understood in context; candidates from them are discarded (they were handled last time).
CONTEXT_TURNS = 2


class ClaimLost(Exception):
    """Our claim went stale and another worker took the session: our results are thrown away."""


class MemoryTurnedOff(Exception):
    """The user switched memory off while their session was being dreamed: store nothing."""


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

    def count_sensitive(self, kind: str) -> None:
        self.sensitive_dropped += 1
        self.sensitive_by_kind[kind] = self.sensitive_by_kind.get(kind, 0) + 1

    @property
    def candidates_created(self) -> int:
        return sum(1 for c in self.candidates if c.status == Candidate.Status.PENDING)

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


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def light_sleep_sweep(
    *,
    now: datetime | None = None,
    user=None,
    session_ids=None,
    worker: str = "",
    batch_size: int | None = None,
    dry_run: bool = False,
    dreamer: Dreamer | None = None,
    embedder: Embedder | None = None,
) -> DreamRun:
    """One sweep: claim up to batch_size idle sessions and process each. Returns the finished DreamRun.

    `now` may be a simulated clock (backfill): idle cutoffs and done stamps use it; claims use the
    wall clock. dry_run claims nothing and writes nothing but the run record (and the model calls
    it made, which did cost money).
    """
    simulated_now = now
    now = now or timezone.now()
    worker = (worker or worker_name())[:120]
    batch_size = batch_size or settings.DREAM_BATCH_SIZE
    run = run_start(phase=Phase.LIGHT, user=user, worker=worker, dry_run=dry_run, simulated_now=simulated_now)
    problem = embedding_space_problem()
    if problem:  # refuse before anything is claimed, embedded or paid for
        return run_finish(run=run, error=problem)
    if not dry_run:
        # A run older than the claim window can no longer hold a claim: its worker died (or will lose
        # every session to ClaimLost); record that instead of leaving it "running" forever.
        runs_fail_abandoned(
            phase=Phase.LIGHT, started_before=timezone.now() - timedelta(seconds=settings.DREAM_CLAIM_STALE_SECONDS)
        )
    try:
        if dry_run:
            session_ids_todo = sessions_claimable(now=now, batch_size=batch_size, user=user, session_ids=session_ids)
            claimed_at = None
        else:
            session_ids_todo, claimed_at = sessions_claim(
                now=now, worker=worker, batch_size=batch_size, user=user, session_ids=session_ids
            )
        run_add(run=run, sessions_claimed=len(session_ids_todo))
        if not session_ids_todo:
            return run_finish(run=run)
        dreamer = dreamer or get_dreamer()
        embedder = embedder or get_embedder()
        error = _sweep_sessions(
            session_ids=session_ids_todo, run=run, now=now, worker=worker, claimed_at=claimed_at,
            dry_run=dry_run, dreamer=dreamer, embedder=embedder,
        )
    except Exception as exc:
        run_finish(run=run, error=exc)
        raise
    return run_finish(run=run, error=error)


def _sweep_sessions(
    *, session_ids: list[int], run: DreamRun, now: datetime, worker: str, claimed_at: datetime | None,
    dry_run: bool, dreamer: Dreamer, embedder: Embedder,
) -> str | None:
    sessions = ChatSession.objects.in_bulk(session_ids)
    errors: list[str] = []
    # [reliability] A session that hits "provider unavailable" twice in a row may be the cause itself
    # (a conversation the model always chokes or times out on). It waits while the next session is
    # tried: if that one goes through, the provider is fine and the suspect is handled like any failing
    # session (held for the stale window, given up after DREAM_MAX_ATTEMPTS), so one poison pill can
    # not stall light sleep for everyone behind it. A real outage costs one extra call per sweep.
    suspect: tuple[ChatSession, ProviderUnavailable] | None = None
    # Sessions whose answer was unusable, held until we know whether the model is broken (a streak of
    # DREAM_UNUSABLE_STREAK: released untouched) or only they are (the next session works: they fail).
    unusable: list[tuple[ChatSession, UnusableAnswer]] = []
    for index, session_id in enumerate(session_ids):
        session = sessions.get(session_id)
        if session is None:  # deleted between claim and load
            continue
        try:
            light_sleep_session(
                session=session, run=run, now=now, worker=worker, claimed_at=claimed_at,
                dry_run=dry_run, dreamer=dreamer, embedder=embedder,
            )
        except ProviderMisconfigured as exc:
            # Every next request would be refused alike: give everything back without counting attempts.
            remaining = [s.pk for s, _ in unusable] + session_ids[index:]
            unusable = []
            if not dry_run:
                for pk in remaining:
                    claim_release(session_id=pk, worker=worker, claimed_at=claimed_at, error=f"provider misconfigured: {exc}")
            errors.insert(0, f"provider misconfigured, sweep stopped: {exc} ({len(remaining)} session(s) released)")
            break
        except UnusableAnswer as exc:
            unusable.append((session, exc))
            if len(unusable) >= settings.DREAM_UNUSABLE_STREAK:
                remaining = [s.pk for s, _ in unusable] + session_ids[index + 1:]
                if not dry_run:
                    for pk in remaining:
                        claim_release(session_id=pk, worker=worker, claimed_at=claimed_at,
                                      error=f"unusable answers in a row: {exc}")
                errors.insert(0, f"circuit breaker: {len(unusable)} unusable answers in a row ({exc}); "
                                 f"{len(remaining)} session(s) released")
                unusable = []
                break
            continue
        except ProviderUnavailable as exc:
            failed_before = session.last_error.startswith(_PROVIDER_DOWN)
            if not dry_run and failed_before and session.attempts > 1:
                # Its attempt survived an earlier release: it already failed while others went through.
                _suspect_failed(session=session, exc=exc, run=run, worker=worker, claimed_at=claimed_at, now=now,
                                errors=errors)
                continue
            if not dry_run and failed_before and suspect is None and index + 1 < len(session_ids):
                suspect = (session, exc)
                continue
            # The provider is down for everyone: hand this session and the rest of the batch back
            # unstamped instead of timing out on each of them; the next sweep retries.
            message = f"provider unavailable: {exc}"
            remaining = ([suspect[0].pk] if suspect else []) + session_ids[index:]
            if not dry_run:
                for pk in remaining:
                    claim_release(session_id=pk, worker=worker, claimed_at=claimed_at, error=message)
            run_add(run=run, sessions_failed=1)
            # First in the run's error: it is the one an operator must act on.
            errors.insert(0, f"{message} ({len(remaining)} session(s) released for the next sweep)")
            suspect = None
            break
        except ClaimLost:
            logger.warning("light sleep: claim on session %s was lost; results discarded", session_id)
            run_add(run=run, sessions_failed=1)
        except MemoryTurnedOff:
            # Left as it was (unclaimed, undreamed): if memory comes back on, it is dreamed then.
            claim_release(session_id=session_id, worker=worker, claimed_at=claimed_at)
        except Exception as exc:
            logger.exception("light sleep failed on session %s", session_id)
            run_add(run=run, sessions_failed=1)
            errors.append(f"session {session_id}: {type(exc).__name__}: {exc}")
            if not dry_run:
                _session_failed(session=session, worker=worker, claimed_at=claimed_at, now=now, error=exc)
        for held, exc in unusable:  # the model answered this session usably: those answers were the sessions' fault
            _unusable_failed(session=held, exc=exc, run=run, worker=worker, claimed_at=claimed_at, now=now,
                             errors=errors, dry_run=dry_run)
        unusable = []
        if suspect is not None:  # the provider answered for the next session: the suspect is the problem
            _suspect_failed(session=suspect[0], exc=suspect[1], run=run, worker=worker, claimed_at=claimed_at,
                            now=now, errors=errors)
            suspect = None
    for held, exc in unusable:
        _unusable_failed(session=held, exc=exc, run=run, worker=worker, claimed_at=claimed_at, now=now,
                         errors=errors, dry_run=dry_run)
    if suspect is not None:  # nothing left to tell: treat it as an outage
        claim_release(session_id=suspect[0].pk, worker=worker, claimed_at=claimed_at,
                      error=f"provider unavailable: {suspect[1]}")
    # Like deep sleep: a run with any failed session is "failed", its error lists what went wrong.
    return "; ".join(errors)[:2000] or None


_PROVIDER_DOWN = ("provider unavailable", "ProviderUnavailable")


def _suspect_failed(*, session: ChatSession, exc: ProviderUnavailable, run: DreamRun, worker: str,
                    claimed_at: datetime, now: datetime, errors: list[str]) -> None:
    logger.warning("light sleep: session %s keeps failing while the provider works for others: %s", session.pk, exc)
    run_add(run=run, sessions_failed=1)
    errors.append(f"session {session.pk}: ProviderUnavailable on this session only: {exc}")
    _session_failed(session=session, worker=worker, claimed_at=claimed_at, now=now, error=exc)


def _unusable_failed(*, session: ChatSession, exc: UnusableAnswer, run: DreamRun, worker: str, claimed_at,
                     now: datetime, errors: list[str], dry_run: bool) -> None:
    run_add(run=run, sessions_failed=1)
    errors.append(f"session {session.pk}: unusable answer: {exc}")
    if not dry_run:
        _session_failed(session=session, worker=worker, claimed_at=claimed_at, now=now, error=exc)


GAVE_UP = "gave up after"
_GAVE_UP_FROM_RE = re.compile(r"^gave up after \d+ attempts \(from seq (\d+)\)")


def _session_failed(*, session: ChatSession, worker: str, claimed_at: datetime, now: datetime, error: Exception):
    text = f"{type(error).__name__}: {error}"
    # The session was loaded after the claim, so attempts already counts this one.
    if session.attempts >= settings.DREAM_MAX_ATTEMPTS:
        # Give up so one poisonous conversation is not retried forever; the error stays visible, and
        # the watermark it had is kept in the text so `dream --retry-failed` can re-queue it.
        last_seq = Message.objects.filter(session=session).order_by("-seq").values_list("seq", flat=True).first()
        claim_stamp(
            session_id=session.pk, worker=worker, claimed_at=claimed_at, dreamed_at=now,
            processed_seq=max(last_seq or 0, session.processed_seq),
            last_error=f"{GAVE_UP} {session.attempts} attempts (from seq {session.processed_seq}): {text}"[:2000],
        )
    else:
        claim_keep_failed(session_id=session.pk, worker=worker, claimed_at=claimed_at, error=text)


def sessions_retry_failed(*, user=None) -> int:
    """Re-queue the sessions light sleep gave up on (`dream --retry-failed`): back to the watermark they
    had, attempts reset. Returns how many."""
    failed = ChatSession.objects.filter(last_error__startswith=GAVE_UP, claimed_at__isnull=True)
    if user is not None:
        failed = failed.filter(user=user)
    count = 0
    for session in failed.only("pk", "last_error"):
        match = _GAVE_UP_FROM_RE.match(session.last_error)
        from_seq = int(match.group(1)) if match else 0
        count += ChatSession.objects.filter(pk=session.pk, last_error=session.last_error, claimed_at__isnull=True).update(
            processed_seq=from_seq, attempts=0, last_error="", **({"dreamed_at": None} if from_seq == 0 else {})
        )
    return count


def light_sleep_session(
    *,
    session: ChatSession,
    run: DreamRun,
    now: datetime,
    dreamer: Dreamer,
    embedder: Embedder,
    worker: str = "",
    claimed_at: datetime | None = None,
    dry_run: bool = False,
) -> SessionOutcome:
    """Process the new part of one claimed session.

    1. Load the messages; only those after processed_seq are new.
    2. No new user words: stamp as empty.
    3. Take the sensitive clauses out of every turn and mask secrets (never sent, never stored).
    4. Paid backends: the free rule pre-check skips obvious kinds with no call.
    5. One model call reads the new part (with a little context before it, marked unquotable): the
       session's kind and its candidates. A skip kind gets no model call (or keeps none of its
       candidates), only the user's plain statements about themself found by rules (self_statements).
    6. Per candidate: drop sensitive / tombstoned / malformed ones, verify the quote against the
       stored user message, keep verified ones as pending and the rest as rejected_unverified.
    7. Embed the kept candidates in one call.
    8. Store candidates + stamp the session in one transaction (unless dry_run), add the counters.
    """
    messages = list(Message.objects.filter(session=session).order_by("seq"))
    outcome = SessionOutcome(
        session_id=session.pk,
        processed_seq=max([m.seq for m in messages] + [session.processed_seq]),
    )
    new_user_messages = [
        m for m in messages if m.seq > session.processed_seq and m.role == Message.Role.USER and m.content.strip()
    ]
    ctx = CallContext(user_id=session.user_id, run_id=run.pk, phase=Phase.LIGHT)
    if not new_user_messages:
        _outcome_skip(outcome, ChatSession.Triage.EMPTY, "no new user messages")
        # A resumed session whose new part is only the assistant keeps what triage said before.
        outcome.keep_triage = session.processed_seq > 0 and bool(session.triage_kind)
    else:
        _session_dream(
            session=session, messages=messages, outcome=outcome, ctx=ctx, dreamer=dreamer, embedder=embedder
        )
    if not dry_run:
        _outcome_save(session=session, outcome=outcome, now=now, worker=worker, claimed_at=claimed_at)
    run_add(run=run, **outcome.counters())
    return outcome


def _outcome_skip(outcome: SessionOutcome, kind: str, reason: str) -> None:
    outcome.kind, outcome.reason, outcome.skipped = kind, reason, True


def _session_dream(
    *, session: ChatSession, messages: list[Message], outcome: SessionOutcome, ctx: CallContext,
    dreamer: Dreamer, embedder: Embedder,
) -> None:
    sendable, dropped = turns_prepare(messages=messages)
    for seq, kinds in dropped.items():
        if seq > session.processed_seq:
            for kind in kinds:
                outcome.count_sensitive(kind)

    extract_turns = _extraction_window(turns=sendable, processed_seq=session.processed_seq)
    if not any(t.role == "user" and t.seq > session.processed_seq for t in extract_turns):
        outcome.reason = "every new user message was held back as sensitive"
        return  # nothing may leave, so no model call at all

    obvious = triage_precheck(turns=sendable) if dreamer.paid else None
    if obvious is not None:  # free: no model call for what the rules already know to skip
        reading = SessionReading(kind=obvious.kind, reason=obvious.reason)
    else:
        info = SessionInfo(new_from_seq=session.processed_seq, started_at=session.started_at)
        # An UnusableAnswer goes up to the sweep: the session is retried (and given up after
        # DREAM_MAX_ATTEMPTS), never stamped done with nothing learned.
        reading = dreamer.read_session(turns=extract_turns, ctx=ctx, info=info)
    outcome.reason = reading.reason[:2000]
    if reading.kind in SKIPPED_KINDS:
        _outcome_skip(outcome, reading.kind, reading.reason[:2000])
        # Skip the task, keep the person: only what the user plainly says about themself in their own
        # words (never code, pasted text or fiction), found by the rules; nothing the model listed.
        extracted = self_statements([t for t in extract_turns if t.seq > session.processed_seq], kind=reading.kind)
    else:
        extracted = list(reading.candidates)
        # The new user turns of a kept session become searchable for recall's excerpts (their sensitive
        # clauses are taken out again when read).
        still_said = {t.seq for t in sendable if t.role == "user"}  # a turn that was all sensitive is gone
        outcome.searchable = [
            m for m in messages
            if m.role == Message.Role.USER and m.seq > session.processed_seq and m.seq in still_said
        ]

    outcome.candidates = candidates_verify(
        session=session, messages=messages, extracted=extracted, outcome=outcome, run_id=ctx.run_id
    )
    if outcome.bad_candidates:
        dropped = f"{outcome.bad_candidates} malformed candidate(s) dropped"
        outcome.note = f"{outcome.note}; {dropped}" if outcome.note else dropped
    kept = [c for c in outcome.candidates if c.status == Candidate.Status.PENDING]
    if kept:
        try:
            vectors = _embed(embedder=embedder, texts=[c.statement for c in kept], ctx=ctx)
        except ProviderUnavailable as exc:
            # The extraction is paid for: keep its candidates without vectors (deep sleep embeds
            # them before it compares) rather than give the session back and pay for it again.
            note = f"embedding failed, candidates stored without vectors: {exc}"
            outcome.note = f"{outcome.note}; {note}" if outcome.note else note
            return
        if len(vectors) != len(kept):
            raise ValueError(f"embedder returned {len(vectors)} vectors for {len(kept)} statements")
        for candidate, vector in zip(kept, vectors):
            candidate.embedding = vector


def _embed(*, embedder: Embedder, texts: list[str], ctx: CallContext) -> list[list[float]]:
    return embedder.embed(texts, kind="document", ctx=ctx)  # the embedder accounts the call (protocol)


def turns_prepare(*, messages: list[Message]) -> tuple[list[Turn], dict[int, tuple[str, ...]]]:
    """(the conversation's turns as they may be read and sent, the kinds of the sensitive clauses taken out
    of each user turn by seq).

    A clause that discloses something sensitive (health, religion, an id number, a password ...) is taken
    out of the turn and the rest of it kept: it is never sent to a model and never read by the engine, so
    nothing from it can become a candidate. The assistant's turns lose every clause that names such a
    thing about anyone ("your peanut allergy" says as much as the user did); secrets are masked in all.
    """
    turns, dropped = [], {}
    for message in messages:
        # System messages are the chat product's own instructions (a persona prompt like "You are
        # Luna..."), not the conversation: they would read as roleplay and say nothing about the user.
        if message.role == Message.Role.SYSTEM or not message.content.strip():
            continue
        redaction = redact_sensitive(message.content, anyone=message.role != Message.Role.USER)
        if message.role == Message.Role.USER and redaction.kinds:
            dropped[message.seq] = redaction.kinds
        if not redaction.text.strip():
            continue
        turn = Turn(
            seq=message.seq, role=message.role, content=mask_secrets(redaction.text), created_at=message.created_at
        )
        turns.append(turn)
    return turns, dropped


def _extraction_window(*, turns: list[Turn], processed_seq: int) -> list[Turn]:
    old = [t for t in turns if t.seq <= processed_seq]
    new = [t for t in turns if t.seq > processed_seq]
    return old[-CONTEXT_TURNS:] + new if new else []


def _outcome_save(
    *, session: ChatSession, outcome: SessionOutcome, now: datetime, worker: str, claimed_at: datetime | None
) -> None:
    fields = {"dreamed_at": now, "processed_seq": outcome.processed_seq, "attempts": 0, "last_error": outcome.note}
    if not outcome.keep_triage:
        fields |= {"triage_kind": outcome.kind, "triage_reason": outcome.reason[:2000], "skipped": outcome.skipped}
    with transaction.atomic():
        # Checked again at write time: memory may have been switched off while the model was thinking.
        if not MemorySettings.is_on(user_id=session.user_id):
            raise MemoryTurnedOff(f"session {session.pk}")
        stamped = claim_stamp(session_id=session.pk, worker=worker, claimed_at=claimed_at, **fields)
        if not stamped:
            raise ClaimLost(f"session {session.pk}")
        Candidate.objects.bulk_create(outcome.candidates)
        if not outcome.skipped:
            excerpts_index(user_id=session.user_id, messages=outcome.searchable)
