"""Memory cards for the list page, each rendered once per version and reused from a cache.

A card's key is a digest of everything the card shows: the memory's own row, its persona's name,
a stamp of its sources, older versions and pending verdicts and whether it is in MEMORY.md (computed
by Postgres with the page's query, selectors.memory_card_stamps), the language, the time zone, the
day (reasons such as "Fading: not mentioned for 4 months" move with the date) and the view. Any change to any of these gives a new key, so nothing is ever invalidated by hand and a
stale card cannot be shown. The cached HTML holds placeholders instead of the two per-request values
(the CSRF token and the page's own address); they are filled in on every request.
"""
from __future__ import annotations

import hashlib

from django.core.cache import caches
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from pgvector.django import VectorField

from dreaming.memory import selectors
from dreaming.models import Memory

CACHE_ALIAS = "cards"
# NUL never occurs in text stored in Postgres, so these cannot collide with a statement or a quote.
CSRF_SLOT = "\x00csrf\x00"
PATH_SLOT = "\x00path\x00"
# Bump when _memory_card.html (or anything it includes) changes: old entries are never read again.
TEMPLATE_VERSION = 1


def _shown_fields(memory: Memory) -> list[str]:
    """The loaded columns of the row, vectors left out (never shown, and costly to print)."""
    deferred = memory.get_deferred_fields()
    return [f.attname for f in Memory._meta.concrete_fields if f.attname not in deferred and not isinstance(f, VectorField)]


def memory_card_key(memory: Memory, *, expanded: bool) -> str:
    """The cache key of this memory's card as it would be drawn now, for the active language.

    `memory` went through selectors.memory_card_stamps: its card_stamp stands for the rows the card
    shows besides its own (sources, older versions, pending verdicts) and in_memory_md for its badge.
    """
    shown = (
        TEMPLATE_VERSION, tuple(getattr(memory, name) for name in _shown_fields(memory)),
        memory.persona.name if memory.persona_id else None, memory.card_stamp, memory.in_memory_md, expanded,
        translation.get_language(), timezone.get_current_timezone_name(), timezone.localdate(),
    )
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()
    return f"card:{memory.pk}:{digest}"


def memory_cards_html(*, request, memories: list[Memory], expanded: bool) -> list[SafeString]:
    """The list page's cards in order: cached ones as they are, the others rendered (and cached)."""
    cache = caches[CACHE_ALIAS]
    keys = [memory_card_key(m, expanded=expanded) for m in memories]
    found = cache.get_many(keys)
    missing = [(key, m) for key, m in zip(keys, memories) if key not in found]
    if missing:
        selectors.memory_cards_prefetch([m for _key, m in missing])
        in_memory_md = {m.pk for m in memories if m.in_memory_md}
        rendered = {key: render_to_string("_memory_card.html", {
            "memory": memory, "in_memory_md": in_memory_md, "expanded": expanded,
            "csrf_token": CSRF_SLOT, "next_path": PATH_SLOT,
        }, request=request) for key, memory in missing}
        cache.set_many(rendered)
        found |= rendered
    token, path = get_token(request), escape(request.get_full_path())
    return [mark_safe(found[key].replace(CSRF_SLOT, token).replace(PATH_SLOT, path)) for key in keys]
