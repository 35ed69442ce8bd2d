"""What staff may do to a candidate from the admin, on top of the memory center's own services."""
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from dreaming.models import Candidate, Memory, MemorySettings
from dreaming.memory.services import candidate_confirm
from dreaming.memory.tombstones import is_tombstoned


@dataclass
class PromoteResult:
    promoted: list[Memory] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


def _why_not_promotable(candidate: Candidate) -> str | None:
    # Staff may override deep sleep's score, never the user's privacy rules or the evidence rule.
    if candidate.status != Candidate.Status.PENDING:
        return _("not pending")
    if not candidate.verified:
        return _("quote not verified")
    if not MemorySettings.is_on(user_id=candidate.user_id):
        return _("memory is off for the user")
    if is_tombstoned(user=candidate.user, statement=candidate.statement):
        return _("the user made us forget it")
    return None


def candidate_promote_by_staff(*, candidate: Candidate, by) -> Memory:
    """Promote one pending, verified candidate to a memory with its quote as the source.

    Reuses the memory center's `candidate_confirm` (same memory, source and MEMORY.md re-render),
    acting for the owner, then records that staff, not the user, made the call.
    """
    why = _why_not_promotable(candidate)
    if why:
        raise ValidationError(f"Candidate {candidate.pk} cannot be promoted: {why}.")
    with transaction.atomic():
        memory = candidate_confirm(candidate=candidate, by=candidate.user)
        breakdown = {k: v for k, v in (memory.score_breakdown or {}).items() if k != "confirmed_by_user"}
        memory.score_breakdown = {**breakdown, "promoted_by_staff": 1.0}
        memory.save(update_fields=["score_breakdown"])
        Candidate.objects.filter(pk=candidate.pk).update(reason=f"promoted by staff ({by.get_username()})")
    return memory


def candidates_promote_by_staff(*, candidates, by) -> PromoteResult:
    result = PromoteResult()
    for candidate in candidates.select_related("user", "message"):
        why = _why_not_promotable(candidate)
        if why:
            result.skip(why)
            continue
        result.promoted.append(candidate_promote_by_staff(candidate=candidate, by=by))
    return result
