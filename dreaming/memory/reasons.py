"""Why a memory is kept, in sentences a person reads ("You brought it up yourself", "Said in 3 conversations").

The score breakdown deep sleep stores (dreaming/memory/scoring.py: parts, weights, feedback log, decay
stamps) is for staff and the model; this turns it into a short list of translated reasons, each
with an optional strength (0..1) the page draws as a small bar. Nothing here is stored.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# A memory not mentioned for this long is "fading" (shorter than every category's half-life).
FADING_AFTER_DAYS = 45


@dataclass(frozen=True)
class Reason:
    text: str
    strength: float | None = None  # 0..1 for the bar; None = no bar
    against: bool = False  # a reason that lowers confidence (drawn in the warning colour)

    @property
    def percent(self) -> int:
        return round(100 * max(0.0, min(1.0, self.strength or 0.0)))


def _day(value) -> str:
    when = parse_datetime(value) if isinstance(value, str) else value
    if when is None:
        return ""
    return formats.date_format(timezone.localtime(when) if timezone.is_aware(when) else when, "MONTH_DAY_FORMAT")


def _initiative(value: float) -> Reason:
    if value >= 0.99:
        return Reason(_("You brought it up yourself"), value)
    if value > 0:
        return Reason(_("You said it in your own words, answering a question"), value)
    return Reason(_("You only agreed with something you were asked"), 0.05, against=True)


def _verdict(entry: dict) -> Reason | None:
    day = _day(entry.get("at"))
    verdict = entry.get("verdict")
    if verdict == "agree":
        return Reason(_("You agreed on %(day)s") % {"day": day}, 1.0)
    if verdict == "doubt":
        return Reason(_("You doubted it on %(day)s") % {"day": day}, 0.25, against=True)
    if verdict == "reject":
        return Reason(_("You rejected it on %(day)s") % {"day": day}, 0.0, against=True)
    return None


def _months(days: float) -> int:
    return max(1, round(days / 30.4))


def memory_reasons(memory, *, has_sources: bool, now: datetime | None = None) -> list[Reason]:
    """The reasons shown under "Why is this remembered?", strongest first; never a raw number dump."""
    now = now or timezone.now()
    breakdown = memory.score_breakdown if isinstance(memory.score_breakdown, dict) else {}
    parts = breakdown.get("parts") if isinstance(breakdown.get("parts"), dict) else {}
    reasons: list[Reason] = []

    if memory.user_set and not has_sources:
        reasons.append(Reason(_("Added by you"), 1.0))
    elif memory.user_set:
        reasons.append(Reason(_("You wrote these words yourself"), 1.0))
    if breakdown.get("confirmed_by_user"):
        reasons.append(Reason(_("You confirmed it when it was pending"), 1.0))
    if breakdown.get("promoted_by_staff"):
        reasons.append(Reason(_("A reviewer confirmed it"), 0.8))
    if "user_initiated" in parts:
        reasons.append(_initiative(float(parts["user_initiated"])))
    if has_sources:
        n = memory.recurrence
        reasons.append(Reason(
            ngettext("Said in %(n)d conversation", "Said in %(n)d conversations", n) % {"n": n}, min(1.0, n / 3)
        ))
    for entry in reversed(breakdown.get("feedback_log") or []):
        reason = _verdict(entry) if isinstance(entry, dict) else None
        if reason:
            reasons.append(reason)
            break  # the latest verdict is the one that counts
    if breakdown.get("vague"):
        reasons.append(Reason(_("Unclear who or what it is about"), 0.1, against=True))
    elif "specificity" in parts:
        value = float(parts["specificity"])
        reasons.append(Reason(_("Specific") if value >= 0.6 else _("Rather general"), value, against=value < 0.6))
    reasons.append(Reason(
        _("Matters a lot to you") if memory.importance >= 0.7
        else _("Matters somewhat") if memory.importance >= 0.4 else _("A small detail"),
        memory.importance,
    ))
    if "stability" in parts and float(parts["stability"]) < 0.5:
        reasons.append(Reason(_("Likely to change over time"), float(parts["stability"]), against=True))
    days_quiet = (now - memory.last_seen).total_seconds() / 86400
    if days_quiet >= FADING_AFTER_DAYS:
        months = _months(days_quiet)
        reasons.append(Reason(ngettext(
            "Fading: not mentioned for %(n)d month", "Fading: not mentioned for %(n)d months", months,
        ) % {"n": months}, 0.5 ** (days_quiet / max(1.0, memory.half_life_days)), against=True))
    elif has_sources:
        reasons.append(Reason(_("Mentioned recently"), 1.0))
    return reasons


def memory_status_reason(memory) -> str:
    """Why a memory that is no longer active left, in one sentence ("" for an active memory)."""
    breakdown = memory.score_breakdown if isinstance(memory.score_breakdown, dict) else {}
    if memory.status == "superseded":
        if str(breakdown.get("archived_reason", "")).startswith("merged"):
            return _("Merged into a memory that says the same.")
        return _("Replaced by newer information.")
    if memory.status == "archived":
        if str(breakdown.get("archived_reason", "")).startswith("evicted"):
            return _("Let go: it faded and was not mentioned again.")
        return _("Archived: you rejected it, or it faded away. It is no longer used.")
    return ""
