"""Traces a forgotten row leaves outside its own table, and how to name a row without its words.

django_admin_log keeps a row's str() (a memory's statement, a candidate's statement, a source's
quote) and, for inline edits, the str() of the inline rows in its change message. A forget
rewrites those entries so the log keeps that something happened, by whom and when, but not the words.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model


def neutral_repr(obj: Model) -> str:
    """A row's name in logs and admin messages: its kind and id, never its text."""
    return f"{obj._meta.verbose_name} #{obj.pk}"


def admin_log_scrub(*, model: type[Model], ids: Iterable[int]) -> int:
    """Blank the words of every admin log entry about these rows. Returns the entries rewritten."""
    ids = [str(i) for i in ids]
    if not ids:
        return 0
    content_type = ContentType.objects.get_for_model(model, for_concrete_model=False)
    entries = LogEntry.objects.filter(content_type=content_type, object_id__in=ids)
    rewritten = 0
    for entry in entries.only("id", "object_id"):
        rewritten += LogEntry.objects.filter(pk=entry.pk).update(
            object_repr=f"{model._meta.verbose_name} #{entry.object_id} (forgotten)", change_message=""
        )
    return rewritten
