"""Light sleep: sweep idle chat sessions and turn what the user said into verified candidates.

Nothing here runs while the user chats. A sweep claims idle sessions (dreaming.pipeline.claims), then for each
one reads only the part not processed yet, keeps sensitive content and secrets away from the model,
triages and extracts candidates in one model call, verifies every quote against the stored user
message and checks that it supports its statement. The batch's finished sessions are stored together
(dreaming.pipeline.light_batch): their candidates with their "done" stamps in one short transaction,
the reads and writes set-wise rather than per session. Deep sleep decides later which candidates
become memories.

Failure rules (no session is lost): zero candidates stamps the session; an unusable answer counts
an attempt (given up after DREAM_MAX_ATTEMPTS, re-queued by `dream --retry-failed`), and
DREAM_UNUSABLE_STREAK of them in a row stop the sweep with every claim given back; a provider that
is unavailable or misconfigured stamps nothing, gives the claims back and stops the sweep (the next
sweep retries); one bad candidate is dropped on its own; an unexpected error in one session is
recorded on it and the sweep goes on, also when it breaks the batch's write (the batch is then
written one session at a time).
"""
from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.self_statements import self_statements
from dreaming.engine.sensitive import redact_sensitive
from dreaming.memory.excerpts import replied_to_in
from dreaming.memory.tombstones import TombstoneIndex
from dreaming.models import DreamRun, Phase
from dreaming.pipeline.claims import claim_keep_failed, claim_release, claim_stamp, sessions_claim, sessions_claimable
from dreaming.pipeline.light_batch import (
    Done, Saved, SessionOutcome, batch_load, counters_sum, outcomes_embed, outcomes_save,
)
from dreaming.pipeline.runs import run_add, run_finish, run_start, runs_fail_abandoned
from dreaming.pipeline.triage_rules import triage_precheck
from dreaming.pipeline.verify import candidates_verify
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

logger = logging.getLogger(__name__)

SKIPPED_KINDS = {str(kind) for kind in ChatSession.SKIPPED_KINDS}
# Already-processed turns shown to the extractor before the new part, so a resumed conversation
# is understood in context; candidates from them are discarded (they were handled last time).
CONTEXT_TURNS = 2


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
    """Read each claimed session in turn; what they give is embedded and stored a batch at a time."""
    batch = batch_load(session_ids=session_ids)
    sweep = _Sweep(run=run, now=now, worker=worker, claimed_at=claimed_at, dry_run=dry_run, embedder=embedder)
    for index, session_id in enumerate(session_ids):
        session = batch.sessions.get(session_id)
        if session is None:  # deleted between claim and load
            continue
        rest = session_ids[index + 1:]
        try:
            outcome = light_sleep_session(
                session=session, messages=batch.messages.get(session_id, []),
                tombstones=batch.tombstones_of(session.user_id), run=run, dreamer=dreamer,
            )
        except ProviderMisconfigured as exc:
            sweep.misconfigured(exc, remaining=[session_id, *rest])
            break
        except UnusableAnswer as exc:
            if sweep.unusable_held(session, exc, rest=rest):
                break
            continue
        except ProviderUnavailable as exc:
            if sweep.provider_down(session, exc, rest=rest):
                break
            continue
        except Exception as exc:
            logger.exception("light sleep failed on session %s", session_id)
            sweep.failed(session, exc)
        else:
            sweep.keep(session, outcome)  # stored with the next write (which may be now)
        if sweep.stopped:  # the embedder is misconfigured: the rest is given back
            sweep.release(rest, error=sweep.stopped)
            break
        sweep.went_through()
    return sweep.finish()


_PROVIDER_DOWN = ("provider unavailable", "ProviderUnavailable")
# Finished sessions are embedded and stored together once this much time has passed since the last
# write (or at the end of the batch): a whole batch at a time with the local engine, about one session
# at a time with a remote model, so a worker killed mid-batch loses at most this much work.
FLUSH_SECONDS = 1.0


class _Sweep:
    """One sweep's failure rules (module docstring) and its finished sessions waiting to be stored.

    [reliability] A session that hits "provider unavailable" twice in a row may be the cause itself (a
    conversation the model always chokes or times out on). It waits as the `suspect` while the next
    session is tried: if that one goes through, the provider is fine and the suspect is handled like any
    failing session (held for the stale window, given up after DREAM_MAX_ATTEMPTS), so one poison pill
    can not stall light sleep for everyone behind it. A real outage costs one extra call per sweep.
    Sessions whose answer was unusable are held the same way until we know whether the model is broken
    (a streak of DREAM_UNUSABLE_STREAK: released untouched) or only they are (the next one works: they fail).
    """

    def __init__(self, *, run: DreamRun, now: datetime, worker: str, claimed_at: datetime | None, dry_run: bool,
                 embedder: Embedder):
        self.run, self.now, self.worker, self.claimed_at = run, now, worker, claimed_at
        self.dry_run, self.embedder = dry_run, embedder
        self.errors: list[str] = []
        self.pending: list[Done] = []
        self.flushed_at = time.monotonic()
        self.suspect: tuple[ChatSession, ProviderUnavailable] | None = None
        self.unusable: list[tuple[ChatSession, UnusableAnswer]] = []
        self.sessions_failed = 0
        self.stopped = ""

    def keep(self, session: ChatSession, outcome: SessionOutcome) -> None:
        self.pending.append((session, outcome))
        if time.monotonic() - self.flushed_at >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Embed and store the finished sessions (one transaction), then add the run's counters once."""
        done, self.pending = self.pending, []
        self.flushed_at = time.monotonic()
        if not done:
            return
        try:
            outcomes_embed(done=done, embedder=self.embedder, run_id=self.run.pk)
        except ProviderMisconfigured as exc:
            self.misconfigured(exc, remaining=[s.pk for s, _ in done])
            return
        broken = [(s, o.error) for s, o in done if o.error is not None]
        done = [(s, o) for s, o in done if o.error is None]
        if self.dry_run:
            saved = Saved(stored=done, failed=broken)
        else:
            saved = outcomes_save(done=done, now=self.now, worker=self.worker, claimed_at=self.claimed_at)
            saved.failed = broken + saved.failed
        for session in saved.claim_lost:
            logger.warning("light sleep: claim on session %s was lost; results discarded", session.pk)
        self.sessions_failed += len(saved.claim_lost)
        for session in saved.memory_off:  # left as it was (unclaimed, undreamed): dreamed if memory comes back on
            claim_release(session_id=session.pk, worker=self.worker, claimed_at=self.claimed_at)
        for session, exc in saved.failed:
            logger.error("light sleep failed on session %s: %s: %s", session.pk, type(exc).__name__, exc)
            self.failed(session, exc)
        run_add(run=self.run, **counters_sum([o for _, o in saved.stored]), sessions_failed=self.sessions_failed)
        self.sessions_failed = 0

    def release(self, pks: list[int], *, error: str = "") -> None:
        if not self.dry_run:
            for pk in pks:
                claim_release(session_id=pk, worker=self.worker, claimed_at=self.claimed_at, error=error)

    def failed(self, session: ChatSession, exc: Exception) -> None:
        self.sessions_failed += 1
        self.errors.append(f"session {session.pk}: {type(exc).__name__}: {exc}")
        if not self.dry_run:
            _session_failed(session=session, worker=self.worker, claimed_at=self.claimed_at, now=self.now, error=exc)

    def misconfigured(self, exc: ProviderMisconfigured, *, remaining: list[int]) -> None:
        # Every next request would be refused alike: give everything back without counting attempts.
        remaining = [s.pk for s, _ in self.unusable] + remaining
        self.unusable = []
        self.release(remaining, error=f"provider misconfigured: {exc}")
        self.errors.insert(0, f"provider misconfigured, sweep stopped: {exc} ({len(remaining)} session(s) released)")
        self.stopped = f"provider misconfigured: {exc}"

    def unusable_held(self, session: ChatSession, exc: UnusableAnswer, *, rest: list[int]) -> bool:
        """Hold the session; True when the streak trips the circuit breaker (the sweep stops)."""
        self.unusable.append((session, exc))
        if len(self.unusable) < settings.DREAM_UNUSABLE_STREAK:
            return False
        remaining = [s.pk for s, _ in self.unusable] + rest
        self.release(remaining, error=f"unusable answers in a row: {exc}")
        self.errors.insert(0, f"circuit breaker: {len(self.unusable)} unusable answers in a row ({exc}); "
                              f"{len(remaining)} session(s) released")
        self.unusable = []
        return True

    def provider_down(self, session: ChatSession, exc: ProviderUnavailable, *, rest: list[int]) -> bool:
        """The suspect rule (class docstring); True when the provider is down for everyone (the sweep stops)."""
        failed_before = session.last_error.startswith(_PROVIDER_DOWN)
        if not self.dry_run and failed_before and session.attempts > 1:
            # Its attempt survived an earlier release: it already failed while others went through.
            self._suspect_failed(session, exc)
            return False
        if not self.dry_run and failed_before and self.suspect is None and rest:
            self.suspect = (session, exc)
            return False
        # The provider is down for everyone: hand this session and the rest of the batch back
        # unstamped instead of timing out on each of them; the next sweep retries.
        message = f"provider unavailable: {exc}"
        remaining = ([self.suspect[0].pk] if self.suspect else []) + [session.pk, *rest]
        self.release(remaining, error=message)
        self.sessions_failed += 1
        # First in the run's error: it is the one an operator must act on.
        self.errors.insert(0, f"{message} ({len(remaining)} session(s) released for the next sweep)")
        self.suspect = None
        return True

    def _suspect_failed(self, session: ChatSession, exc: ProviderUnavailable) -> None:
        logger.warning("light sleep: session %s keeps failing while the provider works for others: %s", session.pk, exc)
        self.sessions_failed += 1
        self.errors.append(f"session {session.pk}: ProviderUnavailable on this session only: {exc}")
        _session_failed(session=session, worker=self.worker, claimed_at=self.claimed_at, now=self.now, error=exc)

    def went_through(self) -> None:
        """The model answered this session usably: the held answers were their sessions' fault."""
        self._unusable_fail()
        if self.suspect is not None:  # the provider answered for the next session: the suspect is the problem
            self._suspect_failed(*self.suspect)
            self.suspect = None

    def _unusable_fail(self) -> None:
        for held, exc in self.unusable:
            self.sessions_failed += 1
            self.errors.append(f"session {held.pk}: unusable answer: {exc}")
            if not self.dry_run:
                _session_failed(session=held, worker=self.worker, claimed_at=self.claimed_at, now=self.now, error=exc)
        self.unusable = []

    def finish(self) -> str | None:
        """Store what is left and settle what is held; returns the run's error (like deep sleep: any failed
        session makes the run "failed", its error lists what went wrong)."""
        self.flush()
        self._unusable_fail()
        if self.suspect is not None:  # nothing left to tell: treat it as an outage
            self.release([self.suspect[0].pk], error=f"provider unavailable: {self.suspect[1]}")
        if self.sessions_failed:
            run_add(run=self.run, sessions_failed=self.sessions_failed)
        return "; ".join(self.errors)[:2000] or None


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
    *, session: ChatSession, messages: list[Message], tombstones: TombstoneIndex, run: DreamRun, dreamer: Dreamer,
) -> SessionOutcome:
    """Read the new part of one claimed session (its messages in seq order): what to store for it.

    1. Only the messages after processed_seq are new; no new user words: stamp as empty.
    2. Take the sensitive clauses out of every turn and mask secrets (never sent, never stored).
    3. Paid backends: the free rule pre-check skips obvious kinds with no call.
    4. One model call reads the new part (with a little context before it, marked unquotable): the
       session's kind and its candidates. A skip kind gets no model call (or keeps none of its
       candidates), only the user's plain statements about themself found by rules (self_statements).
    5. Per candidate: drop sensitive / tombstoned / malformed ones, verify the quote against the
       stored user message, keep verified ones as pending and the rest as rejected_unverified.
    The sweep then embeds the kept candidates and stores them with the stamp, a batch at a time
    (dreaming.pipeline.light_batch).
    """
    outcome = SessionOutcome(
        session_id=session.pk,
        processed_seq=max([m.seq for m in messages] + [session.processed_seq]),
    )
    new_user_messages = [
        m for m in messages if m.seq > session.processed_seq and m.role == Message.Role.USER and m.content.strip()
    ]
    if not new_user_messages:
        _outcome_skip(outcome, ChatSession.Triage.EMPTY, "no new user messages")
        # A resumed session whose new part is only the assistant keeps what triage said before.
        outcome.keep_triage = session.processed_seq > 0 and bool(session.triage_kind)
    else:
        ctx = CallContext(user_id=session.user_id, run_id=run.pk, phase=Phase.LIGHT)
        _session_dream(
            session=session, messages=messages, outcome=outcome, ctx=ctx, dreamer=dreamer, tombstones=tombstones
        )
    return outcome


def _outcome_skip(outcome: SessionOutcome, kind: str, reason: str) -> None:
    outcome.kind, outcome.reason, outcome.skipped = kind, reason, True


def _session_dream(
    *, session: ChatSession, messages: list[Message], outcome: SessionOutcome, ctx: CallContext,
    dreamer: Dreamer, tombstones: TombstoneIndex,
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
        outcome.replied_to = replied_to_in(messages=messages, ids={m.pk for m in outcome.searchable})

    outcome.candidates = candidates_verify(
        session=session, messages=messages, extracted=extracted, outcome=outcome, run_id=ctx.run_id,
        tombstones=tombstones,
    )
    if outcome.bad_candidates:
        outcome.add_note(f"{outcome.bad_candidates} malformed candidate(s) dropped")


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
        # A secret or a card number is a sensitive span itself: a turn that lost no clause has none to mask.
        content = mask_secrets(redaction.text) if redaction.kinds else redaction.text
        turn = Turn(seq=message.seq, role=message.role, content=content, created_at=message.created_at)
        turns.append(turn)
    return turns, dropped


def _extraction_window(*, turns: list[Turn], processed_seq: int) -> list[Turn]:
    old = [t for t in turns if t.seq <= processed_seq]
    new = [t for t in turns if t.seq > processed_seq]
    return old[-CONTEXT_TURNS:] + new if new else []
