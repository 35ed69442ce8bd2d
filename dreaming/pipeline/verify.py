"""Light sleep's verify step: what the model extracted becomes Candidate rows only when its quote is
the user's own words, in a user message of the session not processed before, and supports the
statement (dreaming.engine.quotes); everything else is stored as `rejected_unverified` with the reason.
"""
from __future__ import annotations

import logging
import re

from chat.models import ChatSession, Message
from dreaming.engine.quotes import normalize_for_match, quote_in_message, quoted_sensitive, statement_unsupported
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.sensitive import sensitive_category
from dreaming.memory.scoring import specificity
from dreaming.memory.tombstones import TombstoneIndex
from dreaming.models import Candidate
from dreaming.protocol import CATEGORIES, ExtractedCandidate

logger = logging.getLogger(__name__)


def candidates_verify(
    *, session: ChatSession, messages: list[Message], extracted: list[ExtractedCandidate], outcome, run_id: int | None,
    tombstones: TombstoneIndex,
) -> list[Candidate]:
    """The session's Candidate rows (not saved) from what the model extracted: sensitive, tombstoned,
    duplicate and malformed items dropped (counted on `outcome`), every quote verified against the
    stored user messages and checked to support its statement; the rest `rejected_unverified`.
    `tombstones`: the user's (a light-sleep batch loads them once for all its users)."""
    digests = tombstones
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
    digests: TombstoneIndex, seen: set[str], outcome, run_id: int | None,
) -> Candidate | None:
    quote = (item.quote or "").strip()
    statement = (item.statement or "").strip()
    if not quote or not statement:
        raise ValueError("empty quote or statement")
    kind = (sensitive_category(quote) or sensitive_category(statement) or sensitive_category(_first_person(statement))
            or quoted_sensitive(statement))
    if kind:
        outcome.count_sensitive(kind)
        return None
    if digests.stops(statement):
        outcome.tombstoned_dropped += 1
        return None
    key = normalize_for_match(statement)
    if key in seen:
        return None
    seen.add(key)

    cited = by_seq.get(int(item.seq)) if item.seq is not None else None
    source = _quote_source(quote=quote, cited=cited, user_messages=user_messages)
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
    if source is not None and source.seq <= session.processed_seq:
        # Shown as context, marked not quotable: it was read (and its candidates kept) last time.
        unsupported = f"quote from message #{source.seq}, processed before (context only)"
    elif source is not None:
        unsupported = _unsupported(statement=statement, quote=quote, source=source, user_messages=user_messages,
                                   asked=_question_answered(quote=quote, source=source, by_seq=by_seq))
    else:
        unsupported = None
    if source is None or unsupported:
        outcome.unverified_rejected += 1
        message = source or cited
        said = message or max(user_messages, key=lambda m: m.seq)
        return Candidate(
            **fields, message=message, said_at=said.created_at, status=Candidate.Status.REJECTED_UNVERIFIED,
            verified=False, reason=unsupported or _unverified_reason(cited),
            signals={"session_id": session.pk, "seq": item.seq},
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
    return quote_in_message(quote=quote, text=message.content)


def _quote_source(*, quote: str, cited: Message | None, user_messages: list[Message]) -> Message | None:
    """The user message the quote is verbatim in: the cited one if it matches, else any user message
    of the session (models miscount turns). Never an assistant message."""
    if cited is not None and cited.role == Message.Role.USER and _quote_matches(quote=quote, message=cited):
        return cited
    for message in user_messages:
        if _quote_matches(quote=quote, message=message):
            return message
    return None


def _unsupported(*, statement: str, quote: str, source: Message, user_messages: list[Message], asked: str = "") -> str | None:
    """Why the verbatim quote still does not support the statement (engine.quotes), or None."""
    context = "\n".join(m.content for m in sorted(user_messages, key=lambda m: m.seq) if m.seq <= source.seq)
    reason = statement_unsupported(statement=statement, quote=mask_secrets(quote), message=mask_secrets(source.content),
                                   context=mask_secrets(context), asked=mask_secrets(asked))
    return f"quote does not support the statement: {reason}"[:500] if reason else None


# Where a message's answer to the question before it is: its opening words ("Yes, two of them! …").
_ANSWER_OPENING_CHARS = 80
_SENTENCE_END_RE = re.compile(r"[.!?…]+(?:\s|$)")


def _question_answered(*, quote: str, source: Message, by_seq: dict[int, Message]) -> str:
    """The question a short answer leaves its words to (engine.quotes.answer_unsupported): the assistant's
    message right before `source` when the quote opens `source` ("Yes, two cats"), or the user's own
    question just before the quote ("Do you like to paint? I do!"); else ""."""
    at = source.content.find(quote)
    own = source.content[:at] if at > 0 and "?" in source.content[:at] else ""
    before = by_seq.get(max((seq for seq in by_seq if seq < source.seq), default=-1))
    if before is None or before.role != Message.Role.ASSISTANT:
        return own
    return own or (before.content if _opens(quote=quote, text=source.content) else "")


def _opens(*, quote: str, text: str) -> bool:
    """The quote is in the message's first sentence, or its second after a reaction ("That's cool. Pizza, you?")."""
    at = text.lower().find(quote.lower())
    if at < 0:
        at = normalize_for_match(text).find(normalize_for_match(quote))  # the model changed spacing or punctuation
        return 0 <= at <= _ANSWER_OPENING_CHARS
    return at <= _ANSWER_OPENING_CHARS and len(_SENTENCE_END_RE.findall(text[:at])) <= 1


def _unverified_reason(cited: Message | None) -> str:
    if cited is None:
        return "quote not found in any user message of the session"
    if cited.role != Message.Role.USER:
        return f"quote cites message #{cited.seq}, which is the {cited.role}'s, and no user message contains it"
    return f"quote not found in user message #{cited.seq} nor in any other user message of the session"
