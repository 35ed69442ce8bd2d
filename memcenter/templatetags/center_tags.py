import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

# Where the confidence bar turns from red to amber to green; the legend on the list says the same.
CONFIDENCE_SURE = 75
CONFIDENCE_LIKELY = 45


@register.filter
def you(statement) -> str:
    """A canonical third-person statement ("User has a corgi") as its owner reads it ("You have a corgi")."""
    from dreaming.engine.voice import to_second_person

    return to_second_person(str(statement or ""))


@register.filter
def confidence_level(pct) -> str:
    """high / mid / low for a confidence percentage (the bar's colour and its word)."""
    pct = int(pct or 0)
    return "high" if pct >= CONFIDENCE_SURE else "mid" if pct >= CONFIDENCE_LIKELY else "low"


@register.simple_tag
def memory_reasons(memory):
    """Translated reasons with strengths for the "why" panel (dreaming/memory/reasons.py)."""
    from dreaming.memory.reasons import memory_reasons as reasons

    has_sources = bool(memory.sources.all())
    return reasons(memory, has_sources=has_sources)


@register.filter
def status_reason(memory) -> str:
    from dreaming.memory.reasons import memory_status_reason

    return memory_status_reason(memory)


@register.filter
def percent(value) -> int:
    """0.734 -> 73 (clamped), for the confidence bar and its label."""
    try:
        return max(0, min(100, round(float(value) * 100)))
    except (TypeError, ValueError):
        return 0


@register.filter
def highlight(text, quote):
    """Escape the message, then wrap the quoted words in <mark>. Nothing user-written is trusted.

    The quote is matched ignoring case and runs of whitespace; when it is not found verbatim the
    text is returned escaped and unmarked (the whole message is highlighted by the page instead).
    """
    text = str(text or "")
    quote = str(quote or "").strip()
    if not quote:
        return conditional_escape(text)
    pattern = r"\s+".join(re.escape(part) for part in quote.split())
    match = re.search(pattern, text, flags=re.IGNORECASE)
    if not match:
        return conditional_escape(text)
    return format_html(
        "{}<mark>{}</mark>{}", text[: match.start()], text[match.start(): match.end()], text[match.end():]
    )


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """The current query string with some parameters changed (for pagination and sort links)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        if value in (None, ""):
            params.pop(key, None)
        else:
            params[key] = value
    encoded = params.urlencode()
    return mark_safe("?" + conditional_escape(encoded)) if encoded else "?"


@register.filter
def label(value, kind: str):
    """The translated label of a stored choice (category, status, verdict): model labels are English-only."""
    from memcenter.forms import CATEGORY_CHOICES, STATUS_CHOICES, VERDICT_CHOICES

    table = {"category": CATEGORY_CHOICES, "status": STATUS_CHOICES, "verdict": VERDICT_CHOICES}[kind]
    return dict(table).get(value, value)


@register.simple_tag
def signup_is_enabled() -> bool:
    from memcenter.forms import signup_enabled

    return signup_enabled()


@register.filter
def conversation_title(session) -> str:
    """A conversation's title, else its first line from the user (never "session 23")."""
    from django.utils.text import Truncator
    from django.utils.translation import gettext

    if session.title:
        return session.title
    line = getattr(session, "first_user_line", None)
    if line is None:
        first = session.messages.filter(role="user").order_by("seq").values_list("content", flat=True).first()
        line = first or ""
    line = " ".join(line.split())
    if line:
        return Truncator(line).chars(60)
    return gettext("Conversation of %(day)s") % {"day": session.started_at.strftime("%Y-%m-%d")}


@register.simple_tag
def idle_minutes() -> int:
    from django.conf import settings

    return max(1, round(settings.DREAM_IDLE_SECONDS / 60))
