"""Light sleep: sweep idle chat sessions and turn what the user said into verified candidates.

Nothing here runs while the user chats. A sweep claims idle sessions (dreaming.pipeline.claims), then for each
one reads only the part not processed yet, triages the conversation, keeps sensitive content and
secrets away from the model, extracts candidates in one model call, verifies every quote against the
stored user message, and stores the candidates together with the session's "done" stamp in one short
transaction. Deep sleep decides later which candidates become memories.

Failure rules: an unusable answer or zero candidates still stamps the session (no poison pill); a
provider that is unavailable stamps nothing, gives the claims back and stops the sweep (the next
sweep retries); one bad candidate is dropped on its own; an unexpected error in one session is
recorded on it and the sweep goes on.
"""
from __future__ import annotations

import inspect
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
from dreaming.models import Candidate, DreamRun, MemorySettings, Phase
from dreaming.providers import get_dreamer, get_embedder
from dreaming.providers.accounting import dream_run_add_embedding_calls
from dreaming.protocol import (
    CATEGORIES,
    CallContext,
    Dreamer,
    Embedder,
    ExtractedCandidate,
    ProviderUnavailable,
    TriageResult,
    Turn,
    UnusableAnswer,
)
from dreaming.pipeline.runs import run_add, run_finish, run_start, runs_fail_abandoned
from dreaming.memory.scoring import specificity
from dreaming.engine.sensitive import mask_secrets, sensitive_category
from dreaming.memory.excerpts import excerpts_index
from dreaming.memory.tombstones import is_tombstoned, tombstoned_digests
from dreaming.pipeline.triage_rules import triage_precheck
from dreaming.engine.quotes import normalize_for_match, quote_in_text

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
    unverified_rejected: int = 0
    tombstoned_dropped: int = 0
    bad_candidates: int = 0
    note: str = ""
    keep_triage: bool = False
    # The new user turns recall may show as excerpts once the session is stored as kept.
    searchable: list[Message] = field(default_factory=list)

    @property
    def candidates_created(self) -> int:
        return sum(1 for c in self.candidates if c.status == Candidate.Status.PENDING)

    def counters(self) -> dict:
        counters = {
            "sensitive_dropped": self.sensitive_dropped,
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
    for index, session_id in enumerate(session_ids):
        session = sessions.get(session_id)
        if session is None:  # deleted between claim and load
            continue
        try:
            light_sleep_session(
                session=session, run=run, now=now, worker=worker, claimed_at=claimed_at,
                dry_run=dry_run, dreamer=dreamer, embedder=embedder,
            )
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
        if suspect is not None:  # the provider answered for the next session: the suspect is the problem
            _suspect_failed(session=suspect[0], exc=suspect[1], run=run, worker=worker, claimed_at=claimed_at,
                            now=now, errors=errors)
            suspect = None
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


def _session_failed(*, session: ChatSession, worker: str, claimed_at: datetime, now: datetime, error: Exception):
    text = f"{type(error).__name__}: {error}"
    # The session was loaded after the claim, so attempts already counts this one.
    if session.attempts >= settings.DREAM_MAX_ATTEMPTS:
        # Give up so one poisonous conversation is not retried forever; the error stays visible.
        last_seq = Message.objects.filter(session=session).order_by("-seq").values_list("seq", flat=True).first()
        claim_stamp(
            session_id=session.pk, worker=worker, claimed_at=claimed_at, dreamed_at=now,
            processed_seq=max(last_seq or 0, session.processed_seq),
            last_error=f"gave up after {session.attempts} attempts: {text}"[:2000],
        )
    else:
        claim_keep_failed(session_id=session.pk, worker=worker, claimed_at=claimed_at, error=text)


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
    3. Mask secrets everywhere; hold back sensitive user turns (never sent, never stored).
    4. Triage the conversation (rule pre-check first for remote models); skip kinds stop here.
    5. Extract candidates in one model call from the new part (with a little context before it).
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
    masked, sendable, held_back = turns_prepare(messages=messages)
    outcome.sensitive_dropped += sum(1 for seq in held_back if seq > session.processed_seq)

    extract_turns = _extraction_window(turns=sendable, processed_seq=session.processed_seq)
    if not any(t.role == "user" and t.seq > session.processed_seq for t in extract_turns):
        outcome.reason = "every new user message was held back as sensitive"
        return  # nothing may leave, so no model call at all

    triage = session_triage(masked=masked, sendable=sendable, dreamer=dreamer, ctx=ctx)
    outcome.reason = triage.reason
    if triage.kind in SKIPPED_KINDS:
        _outcome_skip(outcome, triage.kind, triage.reason)
        return
    held = set(held_back)
    outcome.searchable = [
        m for m in messages
        if m.role == Message.Role.USER and m.seq > session.processed_seq and m.seq not in held and m.content.strip()
    ]
    try:
        extracted = dreamer.extract(turns=extract_turns, ctx=ctx)
    except UnusableAnswer as exc:
        # No poison pill: an answer we cannot use counts as "nothing to remember" and is stamped.
        outcome.note = f"unusable extraction answer: {exc}"
        extracted = []
    extracted = list(extracted or [])

    outcome.candidates = _candidates_build(
        session=session, messages=messages, extracted=extracted, outcome=outcome, run_id=ctx.run_id
    )
    if outcome.bad_candidates:
        dropped = f"{outcome.bad_candidates} malformed candidate(s) dropped"
        outcome.note = f"{outcome.note}; {dropped}" if outcome.note else dropped
    kept = [c for c in outcome.candidates if c.status == Candidate.Status.PENDING]
    if kept:
        vectors = _embed(embedder=embedder, texts=[c.statement for c in kept], ctx=ctx)
        if len(vectors) != len(kept):
            raise ValueError(f"embedder returned {len(vectors)} vectors for {len(kept)} statements")
        for candidate, vector in zip(kept, vectors):
            candidate.embedding = vector


def _embed(*, embedder: Embedder, texts: list[str], ctx: CallContext) -> list[list[float]]:
    # Embedders that take the CallContext account the call themselves (LLMCall row and/or the run's
    # embedding_calls); one without it (an older or test embedder) is counted on the run here.
    if "ctx" in inspect.signature(embedder.embed).parameters:
        return embedder.embed(texts, kind="document", ctx=ctx)
    vectors = embedder.embed(texts, kind="document")
    dream_run_add_embedding_calls(run_id=ctx.run_id)
    return vectors


def turns_prepare(*, messages: list[Message]) -> tuple[list[Turn], list[Turn], list[int]]:
    """(every conversation turn with secrets masked, the turns that may leave for a model, seqs held back).

    A user turn that discloses health, religion or credentials is held back whole: it is never sent
    to a model, so nothing from it can become a candidate. Assistant turns are only held back for
    health/religion (they often mention "password" while helping, which is harmless once masked).
    """
    masked, sendable, held_back = [], [], []
    for message in messages:
        # System messages are the chat product's own instructions (a persona prompt like "You are
        # Luna..."), not the conversation: they would read as roleplay and say nothing about the user.
        if message.role == Message.Role.SYSTEM or not message.content.strip():
            continue
        turn = Turn(
            seq=message.seq, role=message.role, content=mask_secrets(message.content), created_at=message.created_at
        )
        masked.append(turn)
        category = sensitive_category(message.content)
        if message.role == Message.Role.USER and category:
            held_back.append(message.seq)
        elif category in ("health", "religion"):
            continue
        else:
            sendable.append(turn)
    return masked, sendable, held_back


def session_triage(*, masked: list[Turn], sendable: list[Turn], dreamer: Dreamer, ctx: CallContext) -> TriageResult:
    """The rule pre-check skips obvious cases for free; otherwise the dreamer decides.

    The local dreamer *is* the rule engine, so it gets no separate pre-check. The pre-check runs on
    the whole masked conversation (it never leaves the machine); the model sees only sendable turns.
    """
    if getattr(dreamer, "name", "") != "local":
        obvious = triage_precheck(turns=masked)
        if obvious is not None:
            return obvious
    try:
        result = dreamer.triage(turns=sendable, ctx=ctx)
    except UnusableAnswer as exc:
        # Cannot tell: keep the conversation (extraction and verification still guard what is stored).
        return TriageResult(kind=ChatSession.Triage.NORMAL, reason=f"triage answer unusable: {exc}"[:500])
    kind = result.kind if result.kind in SKIPPED_KINDS else ChatSession.Triage.NORMAL
    return TriageResult(kind=kind, reason=(result.reason or "")[:2000])


def _extraction_window(*, turns: list[Turn], processed_seq: int) -> list[Turn]:
    old = [t for t in turns if t.seq <= processed_seq]
    new = [t for t in turns if t.seq > processed_seq]
    return old[-CONTEXT_TURNS:] + new if new else []


def _candidates_build(
    *, session: ChatSession, messages: list[Message], extracted: list[ExtractedCandidate], outcome: SessionOutcome,
    run_id: int | None,
) -> list[Candidate]:
    digests = tombstoned_digests(user=session.user)
    by_seq = {m.seq: m for m in messages}
    user_messages = [m for m in messages if m.role == Message.Role.USER]
    # New messages first: a quote repeated from an earlier turn is credited to the new one.
    user_messages.sort(key=lambda m: (m.seq <= session.processed_seq, m.seq))
    seen: set[str] = set()
    candidates = []
    for item in extracted:
        try:
            candidate = _candidate_build(
                session=session, item=item, by_seq=by_seq, user_messages=user_messages,
                digests=digests, seen=seen, outcome=outcome, run_id=run_id,
            )
        except (TypeError, ValueError, AttributeError) as exc:
            # One malformed candidate does not sink the session.
            logger.warning("light sleep: dropped a malformed candidate in session %s: %s", session.pk, exc)
            outcome.bad_candidates += 1
            continue
        if candidate is not None:
            candidates.append(candidate)
    return candidates


def _candidate_build(
    *, session: ChatSession, item: ExtractedCandidate, by_seq: dict[int, Message], user_messages: list[Message],
    digests: set[str], seen: set[str], outcome: SessionOutcome, run_id: int | None,
) -> Candidate | None:
    quote = (item.quote or "").strip()
    statement = (item.statement or "").strip()
    if not quote or not statement:
        raise ValueError("empty quote or statement")
    if sensitive_category(quote) or sensitive_category(statement) or sensitive_category(_first_person(statement)):
        outcome.sensitive_dropped += 1
        return None
    if is_tombstoned(user=session.user, statement=statement, digests=digests):
        outcome.tombstoned_dropped += 1
        return None
    key = normalize_for_match(statement)
    if key in seen:
        return None
    seen.add(key)

    cited = by_seq.get(int(item.seq)) if item.seq is not None else None
    source = _quote_source(quote=quote, cited=cited, user_messages=user_messages)
    if source is not None and source.seq <= session.processed_seq:
        return None  # said in the part processed last time: already a candidate then
    importance = min(1.0, max(0.0, float(item.importance)))
    category = item.category if item.category in CATEGORIES else "fact"
    fields = {
        "user_id": session.user_id,
        "persona_id": session.persona_id,
        "session": session,
        "run_id": run_id,
        "quote": mask_secrets(quote),
        "statement": mask_secrets(statement),
        "category": category,
        "importance": importance,
        "user_initiated": bool(item.user_initiated),
    }
    if source is None:
        outcome.unverified_rejected += 1
        said = cited or max(user_messages, key=lambda m: m.seq)
        return Candidate(
            **fields, message=cited, said_at=said.created_at, status=Candidate.Status.REJECTED_UNVERIFIED,
            verified=False, reason=_unverified_reason(cited), signals={"session_id": session.pk, "seq": item.seq},
        )
    return Candidate(
        **fields, message=source, said_at=source.created_at, status=Candidate.Status.PENDING, verified=True,
        signals={"session_id": session.pk, "seq": source.seq, "specific": specificity(statement)},
    )


_THIRD_PERSON_EN = re.compile(r"^\s*(?:the\s+)?user\b(?P<possessive>'s|’s)?", re.IGNORECASE)
_THIRD_PERSON_ZH = re.compile(r"^\s*用户")


def _first_person(statement: str) -> str:
    # Statements are third person ("The user has diabetes"); the sensitive rules look for first-person
    # disclosure, so read the statement as the user would have said it ("I has diabetes" is enough).
    statement = _THIRD_PERSON_ZH.sub("我", statement)
    return _THIRD_PERSON_EN.sub(lambda m: "my" if m.group("possessive") else "I", statement)


def _quote_matches(*, quote: str, message: Message) -> bool:
    # The model saw masked text, so a quote may carry "[SECRET]" where the stored message has the
    # secret itself; both spellings of the message count.
    return quote_in_text(quote=quote, text=message.content) or quote_in_text(
        quote=quote, text=mask_secrets(message.content)
    )


def _quote_source(*, quote: str, cited: Message | None, user_messages: list[Message]) -> Message | None:
    """The user message the quote is verbatim in: the cited one if it matches, else any user message
    of the session (models miscount turns). Never an assistant message."""
    if cited is not None and cited.role == Message.Role.USER and _quote_matches(quote=quote, message=cited):
        return cited
    for message in user_messages:
        if _quote_matches(quote=quote, message=message):
            return message
    return None


def _unverified_reason(cited: Message | None) -> str:
    if cited is None:
        return "quote not found in any user message of the session"
    if cited.role != Message.Role.USER:
        return f"quote cites message #{cited.seq}, which is the {cited.role}'s, and no user message contains it"
    return f"quote not found in user message #{cited.seq} nor in any other user message of the session"


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
