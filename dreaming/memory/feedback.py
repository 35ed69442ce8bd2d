"""Apply the user's agree / doubt / reject to their memories, once, during deep sleep.

agree +0.10 and last_seen refreshed (so decay starts again from now); doubt −0.15; reject −0.35, the
memory is archived (no longer in MEMORY.md or recall) and its statement tombstoned so it is never
learned again. Confidence is clipped to 0.05–0.98. Each Feedback row is claimed with a conditional
UPDATE on applied_at, so even two callers racing apply it exactly once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import OuterRef, Subquery

from dreaming.models import Feedback, Memory
from dreaming.memory.scoring import clip_confidence
from dreaming.memory.tombstones import tombstone_add


@dataclass
class FeedbackResult:
    applied: int = 0
    rejected: list[Memory] = field(default_factory=list)
    memory_ids: set[int] = field(default_factory=set)


def feedback_apply_pending(*, user, now: datetime) -> FeedbackResult:
    result = FeedbackResult()
    pending = Feedback.objects.filter(user=user, applied_at__isnull=True).select_related("memory").order_by("created_at", "pk")
    for feedback in pending:
        claimed = Feedback.objects.filter(pk=feedback.pk, applied_at__isnull=True).update(applied_at=now)
        if claimed != 1:
            continue
        memory = Memory.objects.select_for_update().get(pk=feedback.memory_id)
        _feedback_apply(feedback=feedback, memory=memory, now=now)
        result.applied += 1
        result.memory_ids.add(memory.pk)
        if feedback.verdict == Feedback.Verdict.REJECT:
            result.rejected.append(memory)
    return result


def _feedback_apply(*, feedback: Feedback, memory: Memory, now: datetime) -> None:
    delta = Feedback.DELTAS[feedback.verdict]
    before = memory.confidence
    memory.confidence = clip_confidence(memory.confidence + delta)
    if feedback.verdict == Feedback.Verdict.AGREE:
        memory.last_seen = max(memory.last_seen, now)
    if feedback.verdict == Feedback.Verdict.REJECT:
        memory.status = Memory.Status.ARCHIVED
        tombstone_add(user=memory.user, statement=memory.statement)
    log = list(memory.score_breakdown.get("feedback_log", []))
    log.append({"verdict": feedback.verdict, "delta": delta, "before": round(before, 4),
                "after": memory.confidence, "at": now.isoformat()})
    memory.score_breakdown = {**memory.score_breakdown, "feedback_log": log}
    memory.save(update_fields=["confidence", "last_seen", "status", "score_breakdown", "updated_at"])


def latest_verdict_subquery(*, applied_only: bool) -> Subquery:
    """The user's newest verdict on the outer memory (OuterRef("pk")), to annotate a Memory queryset.

    The one definition of "the latest verdict". An edit deletes the verdicts before it
    (memory_verdicts_supersede), so whatever this finds was given on the words the memory has now.
    applied_only: deep sleep's view (a verdict counts once applied); MEMORY.md honours a verdict at once.
    """
    feedback = Feedback.objects.filter(memory=OuterRef("pk"))
    if applied_only:
        feedback = feedback.filter(applied_at__isnull=False)
    return Subquery(feedback.order_by("-created_at", "-pk").values("verdict")[:1])


def latest_verdicts(*, user, applied_only: bool = True) -> dict[int, str]:
    """{memory id: latest verdict} for the user's memories that have one."""
    rows = (
        Memory.objects.filter(user=user, feedback__isnull=False).distinct()
        .annotate(verdict=latest_verdict_subquery(applied_only=applied_only))
        .exclude(verdict=None)
        .values_list("pk", "verdict")
    )
    return dict(rows)


def latest_verdict(*, memory_id: int, applied_only: bool = True) -> str | None:
    """The user's most recent verdict on one memory (agreed memories resist decay)."""
    return (
        Memory.objects.filter(pk=memory_id)
        .annotate(verdict=latest_verdict_subquery(applied_only=applied_only))
        .values_list("verdict", flat=True)
        .first()
    )


def memory_verdicts_supersede(*, memory: Memory) -> int:
    """An edit supersedes every verdict given before it: a Doubt on the old words must not mark (or,
    at the next deep sleep, lower) the words the user chose. Their history stays in feedback_log."""
    return Feedback.objects.filter(memory=memory).delete()[0]
