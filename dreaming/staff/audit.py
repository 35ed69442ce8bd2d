"""Staff audit of candidates: locating a quote in its message, labelling, and labelled-example export."""
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString

from dreaming.models import Candidate
from dreaming.engine.quotes import normalize_for_match

_DROPPED = re.compile(r"[\s\W_]+", re.UNICODE)  # the same class normalize_for_match removes


def _clusters(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each base character plus the combining marks that follow it.

    NFKC composes a base with its marks ("e" + U+0301 → "é"), so they are normalized together.
    """
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or not unicodedata.combining(text[i]):
            yield start, i
            start = i


def quote_span(*, quote: str, text: str) -> tuple[int, int] | None:
    """Where `quote` sits in `text` (original indices, end exclusive), matched like verify does.

    Builds the normalized text piece by piece, remembering which original characters each
    normalized character came from, then maps the match back. None when the quote is not there.
    """
    needle = normalize_for_match(quote)
    if not needle:
        return None
    normalized: list[str] = []
    origin: list[tuple[int, int]] = []
    for start, end in _clusters(text):
        piece = _DROPPED.sub("", unicodedata.normalize("NFKC", text[start:end]).casefold())
        normalized.append(piece)
        origin.extend([(start, end)] * len(piece))
    at = "".join(normalized).find(needle)
    if at < 0:
        return None
    return origin[at][0], origin[at + len(needle) - 1][1]


def quote_highlight(*, quote: str, text: str) -> SafeString:
    """The message, escaped, with the quoted words wrapped in <mark> (no mark when not found)."""
    span = quote_span(quote=quote, text=text)
    if span is None:
        return escape(text)
    start, end = span
    return format_html("{}<mark>{}</mark>{}", text[:start], text[start:end], text[end:])


def candidates_label(*, candidates: QuerySet[Candidate], audit: str, note: str | None = None) -> int:
    """Set the staff audit label on many candidates at once; returns how many changed."""
    if audit not in Candidate.Audit.values:
        raise ValueError(f"unknown audit label {audit!r}")
    fields = {"audit": audit}
    if note is not None:
        fields["audit_note"] = note
    with transaction.atomic():
        return candidates.update(**fields)


def candidates_dismiss(*, candidates: QuerySet[Candidate]) -> int:
    """Staff dismissal of undecided candidates (promoted/merged ones already became memories)."""
    decidable = candidates.filter(status=Candidate.Status.PENDING)
    with transaction.atomic():
        return decidable.update(
            status=Candidate.Status.DISMISSED, decided_at=timezone.now(), reason="dismissed by staff"
        )


def audit_example(candidate: Candidate) -> dict:
    return {
        "statement": candidate.statement,
        "quote": candidate.quote,
        "message": candidate.message.content if candidate.message_id else None,
        "category": candidate.category,
        "status": candidate.status,
        "reason": candidate.reason,
        "audit": candidate.audit,
        "audit_note": candidate.audit_note,
        "triage_kind": candidate.session.triage_kind if candidate.session_id else None,
    }


def audit_examples(*, labelled_only: bool = True, candidates: QuerySet[Candidate] | None = None) -> QuerySet[Candidate]:
    queryset = Candidate.objects.all() if candidates is None else candidates
    if labelled_only:
        queryset = queryset.exclude(audit=Candidate.Audit.NONE)
    return queryset.select_related("message", "session").order_by("created_at", "id")


def audit_jsonl(candidates: Iterable[Candidate]) -> Iterator[str]:
    """One JSON object per line, UTF-8 text kept readable (no \\u escapes for Chinese)."""
    for candidate in candidates:
        yield json.dumps(audit_example(candidate), ensure_ascii=False) + "\n"
