"""Staff admin for dreaming: the candidate audit first, then every other model for inspection.

Pipeline rows (runs, model calls, documents, tombstones) are read-only here: they are written by
the pipeline and editing them would make the dashboard lie. Deleting a memory or a conversation goes
through the same forget path as the memory center so nothing lingers in MEMORY.md.
"""
import json

from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy as _, ngettext_lazy

from chat.admin import ChatSessionAdmin
from chat.models import ChatSession
from dreaming import models
from dreaming.staff.admin_actions import candidates_promote_by_staff
from dreaming.staff.admin_filters import ReasonFilter, RunFilter, score_summary
from dreaming.staff.admin_forms import LabelledTabularInline
from dreaming.staff.audit import audit_examples, audit_jsonl, candidates_dismiss, candidates_label, quote_highlight
from dreaming.memory.context import memory_md_render_all
from dreaming.memory.traces import neutral_repr
from dreaming.memory.services import candidates_delete, conversation_delete, memory_forget


CONTEXT_BEFORE, CONTEXT_AFTER = 2, 1
# What the candidate actions say, with the number as %(n)d (ngettext_lazy picks the plural from it).
PROMOTED = ngettext_lazy("Promoted %(n)d candidate.", "Promoted %(n)d candidates.", "n")
DISMISSED = ngettext_lazy("Dismissed %(n)d candidate; others were not pending.",
                          "Dismissed %(n)d candidates; others were not pending.", "n")
MARKED_ERROR = ngettext_lazy("Marked %(n)d candidate as an extraction error.",
                             "Marked %(n)d candidates as extraction errors.", "n")
MARKED_CORRECT = ngettext_lazy("Marked %(n)d candidate as correct.", "Marked %(n)d candidates as correct.", "n")


def _short(text: str, chars: int = 80) -> str:
    return Truncator(text or "").chars(chars)


def _link(obj, label=None):
    if obj is None:
        return "—"
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, label or str(obj))


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the pipeline writes: viewable, filterable, deletable by a superuser, never edited."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class NeutralLogAdmin(admin.ModelAdmin):
    """Rows that hold a user's words: admin log entries and messages name them by kind and id only.

    Django's log keeps str(obj) (a statement, a quote) forever in django_admin_log, and an inline's
    str() in the change message; a forgotten memory's words must not outlive it there.
    """

    def _log(self, request, objects, action_flag, message=""):
        from django.contrib.admin.models import LogEntry
        from django.contrib.contenttypes.models import ContentType

        if isinstance(message, list):
            message = json.dumps([_without_object_names(item) for item in message])
        entries = [
            LogEntry(
                user_id=request.user.pk,
                content_type_id=ContentType.objects.get_for_model(obj, for_concrete_model=False).pk,
                object_id=str(obj.pk), object_repr=neutral_repr(obj), action_flag=action_flag,
                change_message=message,
            )
            for obj in objects
        ]
        return LogEntry.objects.bulk_create(entries)

    def log_addition(self, request, obj, message):
        from django.contrib.admin.models import ADDITION

        return self._log(request, [obj], ADDITION, message)[0]

    def log_change(self, request, obj, message):
        from django.contrib.admin.models import CHANGE

        return self._log(request, [obj], CHANGE, message)[0]

    def log_deletions(self, request, queryset):
        from django.contrib.admin.models import DELETION

        return self._log(request, list(queryset), DELETION)

    def response_delete(self, request, obj_display, obj_id):
        # obj_display is str(obj): the words just forgotten, on their way into the messages store.
        return super().response_delete(request, f"{self.opts.verbose_name} #{obj_id}", obj_id)


def _without_object_names(item):
    """A change-message item with the inline rows' names ({"added": {"name": …, "object": "<quote>"}}) dropped."""
    if not isinstance(item, dict):
        return item
    return {
        action: ({k: v for k, v in detail.items() if k != "object"} if isinstance(detail, dict) else detail)
        for action, detail in item.items()
    }


# --- Candidate audit -------------------------------------------------------------------------


@admin.register(models.Candidate)
class CandidateAdmin(NeutralLogAdmin):
    class Media:  # classes, not style="" attributes: the Content-Security-Policy allows no inline style
        css = {"all": ["dreaming/admin.css"]}

    list_display = (
        "id", "user_name", "statement_short", "quote_short", "category", "status", "reason_short",
        "triage_kind", "verified", "score_parts", "audit", "created_at",
    )
    list_display_links = ("id", "statement_short")
    list_filter = (
        "status", "category", ReasonFilter, RunFilter, "created_at", "audit", "session__triage_kind",
        "verified", "user_initiated",
    )
    search_fields = ("statement", "quote", "user__username")
    list_select_related = ("user", "session")
    date_hierarchy = "created_at"
    list_per_page = 50
    raw_id_fields = ("user", "persona", "session", "message", "run", "memory")
    readonly_fields = (
        "user", "persona", "session_link", "message_link", "run_link", "memory_link", "statement", "quote",
        "message_highlighted", "conversation_around", "category", "importance", "user_initiated", "signals_pretty",
        "status", "reason",
        "verified", "score", "score_breakdown_pretty", "triage_kind", "said_at", "created_at", "decided_at",
    )
    fieldsets = (
        (_("What was heard"), {"fields": ("user", "persona", "statement", "quote", "message_highlighted")}),
        (_("Where from"), {"fields": (
            "session_link", "triage_kind", "message_link", "conversation_around", "run_link", "said_at",
        )}),
        (_("Decision"), {"fields": (
            "category", "importance", "user_initiated", "status", "reason", "verified", "score",
            "score_breakdown_pretty", "signals_pretty", "memory_link", "created_at", "decided_at",
        )}),
        (_("Audit"), {"fields": ("audit", "audit_note")}),
    )
    actions = ("promote", "dismiss", "mark_extraction_error", "mark_correct", "export_jsonl")
    # One click on the change page: "Correct" / "Extraction error", then on to the next unaudited one.
    change_form_template = "admin/dreaming/candidate/change_form.html"
    AUDIT_BUTTONS = {"correct": models.Candidate.Audit.CORRECT, "extraction_error": models.Candidate.Audit.EXTRACTION_ERROR}

    def has_add_permission(self, request):
        return False  # candidates are heard by light sleep, never typed in

    # A deleted candidate may be quoted by a "kept pending" line of DREAMS.md: that line goes too.
    def delete_model(self, request, obj):
        candidates_delete(candidates=[obj])

    def delete_queryset(self, request, queryset):
        candidates_delete(candidates=list(queryset))

    def response_change(self, request, obj):
        verdict = self.AUDIT_BUTTONS.get(request.POST.get("_audit", ""))
        if verdict is None:
            return super().response_change(request, obj)
        candidates_label(candidates=models.Candidate.objects.filter(pk=obj.pk), audit=verdict)
        marked = gettext("Candidate #%(id)s marked “%(verdict)s”.") % {"id": obj.pk, "verdict": verdict.label}
        self.message_user(request, marked, messages.SUCCESS)
        following = (
            models.Candidate.objects.filter(audit=models.Candidate.Audit.NONE, pk__lt=obj.pk).order_by("-pk").first()
        )
        if following is None:
            return HttpResponseRedirect(reverse("admin:dreaming_candidate_changelist"))
        return HttpResponseRedirect(reverse("admin:dreaming_candidate_change", args=[following.pk]))

    @admin.display(description=_("user"), ordering="user__username")
    def user_name(self, obj):
        return obj.user.get_username()

    @admin.display(description=_("statement"))
    def statement_short(self, obj):
        return _short(obj.statement)

    @admin.display(description=_("quote"))
    def quote_short(self, obj):
        return _short(obj.quote, 60)

    @admin.display(description=_("reason"))
    def reason_short(self, obj):
        return _short(obj.reason, 40)

    @admin.display(description=_("triage"), ordering="session__triage_kind")
    def triage_kind(self, obj):
        return obj.session.get_triage_kind_display() if obj.session_id else "—"

    @admin.display(description=_("score (top parts)"), ordering="score")
    def score_parts(self, obj):
        return score_summary(obj.score_breakdown, obj.score)

    @admin.display(description=_("quote in its message"))
    def message_highlighted(self, obj):
        if not obj.message_id:
            return gettext("(the source message is gone)")
        return format_html('<div class="quote-in-message">{}</div>',
                           quote_highlight(quote=obj.quote, text=obj.message.content))

    @admin.display(description=_("conversation around it"))
    def conversation_around(self, obj):
        # The turns before and after: an "extraction error" is often the assistant's words taken
        # as the user's, or a quote that only means something with the question it answers.
        if not obj.message_id:
            return "—"
        seq = obj.message.seq
        nearby = obj.message.session.messages.filter(seq__gte=seq - CONTEXT_BEFORE, seq__lte=seq + CONTEXT_AFTER)
        return format_html_join(
            "", '<p class="turn-around {}"><strong>{} #{}</strong>: {}</p>',
            (("turn-around--quoted" if m.pk == obj.message_id else "", m.get_role_display(), m.seq, _short(m.content, 400))
             for m in nearby),
        )

    @admin.display(description=_("session"))
    def session_link(self, obj):
        return _link(obj.session)

    @admin.display(description=_("message"))
    def message_link(self, obj):
        if not obj.message_id:
            return _link(None)
        label = gettext("message #%(id)s (turn %(seq)s)") % {"id": obj.message_id, "seq": obj.message.seq}
        return _link(obj.message, label)

    @admin.display(description=_("run"))
    def run_link(self, obj):
        return _link(obj.run)

    @admin.display(description=_("memory"))
    def memory_link(self, obj):
        return _link(obj.memory)

    @admin.display(description=_("score breakdown"))
    def score_breakdown_pretty(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.score_breakdown or {}, indent=2, ensure_ascii=False))

    @admin.display(description=_("signals"))
    def signals_pretty(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.signals or {}, indent=2, ensure_ascii=False))

    @admin.action(description=_("Promote to memory (pending, verified only)"))
    def promote(self, request, queryset):
        result = candidates_promote_by_staff(candidates=queryset, by=request.user)
        self.message_user(request, PROMOTED % {"n": len(result.promoted)}, messages.SUCCESS)
        if result.skipped:
            skipped = gettext(", ").join(f"{n} {why}" for why, n in sorted(result.skipped.items()))
            self.message_user(request, gettext("Skipped: %(skipped)s.") % {"skipped": skipped}, messages.WARNING)

    @admin.action(description=_("Dismiss (pending only)"))
    def dismiss(self, request, queryset):
        n = candidates_dismiss(candidates=queryset)
        self.message_user(request, DISMISSED % {"n": n}, messages.SUCCESS)

    @admin.action(description=_("Mark as extraction error (labelled example)"))
    def mark_extraction_error(self, request, queryset):
        n = candidates_label(candidates=queryset, audit=models.Candidate.Audit.EXTRACTION_ERROR)
        self.message_user(request, MARKED_ERROR % {"n": n}, messages.SUCCESS)

    @admin.action(description=_("Mark as correct (labelled example)"))
    def mark_correct(self, request, queryset):
        n = candidates_label(candidates=queryset, audit=models.Candidate.Audit.CORRECT)
        self.message_user(request, MARKED_CORRECT % {"n": n}, messages.SUCCESS)

    @admin.action(description=_("Export selected as JSONL"))
    def export_jsonl(self, request, queryset):
        body = "".join(audit_jsonl(audit_examples(labelled_only=False, candidates=queryset)))
        response = HttpResponse(body, content_type="application/x-ndjson; charset=utf-8")
        name = f"candidate-audit-{timezone.now():%Y%m%d-%H%M%S}.jsonl"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


# --- Memories --------------------------------------------------------------------------------


class MemorySourceInline(LabelledTabularInline):
    model = models.MemorySource
    extra = 0
    raw_id_fields = ("message",)
    fields = ("quote", "message", "said_at", "created_at")
    readonly_fields = ("created_at",)


@admin.register(models.Memory)
class MemoryAdmin(NeutralLogAdmin):
    list_display = (
        "id", "statement_short", "user", "persona", "category", "status", "confidence", "importance", "score",
        "recurrence", "user_set", "last_seen",
    )
    list_filter = ("status", "category", "user_set", "persona", "created_at")
    search_fields = ("statement", "user__username")
    list_select_related = ("user", "persona")
    raw_id_fields = ("user", "persona", "superseded_by")
    exclude = ("embedding",)
    readonly_fields = ("score_breakdown", "recall_count", "last_recalled_at", "created_at", "updated_at")
    date_hierarchy = "created_at"
    inlines = (MemorySourceInline,)

    @admin.display(description=_("statement"))
    def statement_short(self, obj):
        return _short(obj.statement)

    # The chat path reads only the stored MEMORY.md: an edit here must show up there at once.
    # (save_related runs after save_model and the sources inline, so one render covers both.)
    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        memory_md_render_all(user=form.instance.user)

    # Deleting here is the user's "forget": tombstoned, MEMORY.md re-rendered, DREAMS.md scrubbed.
    def delete_model(self, request, obj):
        memory_forget(memory=obj, by=obj.user)

    def delete_queryset(self, request, queryset):
        for memory in queryset.select_related("user"):
            memory_forget(memory=memory, by=memory.user)


@admin.register(models.MemorySource)
class MemorySourceAdmin(NeutralLogAdmin):
    list_display = ("id", "quote_short", "memory", "message", "said_at")
    search_fields = ("quote", "memory__statement", "memory__user__username")
    raw_id_fields = ("memory", "message")
    list_select_related = ("memory",)

    @admin.display(description=_("quote"))
    def quote_short(self, obj):
        return _short(obj.quote)


@admin.register(models.Feedback)
class FeedbackAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "verdict", "memory", "created_at", "applied_at")
    list_filter = ("verdict", ("applied_at", admin.EmptyFieldListFilter), "created_at")
    search_fields = ("user__username", "memory__statement")
    raw_id_fields = ("user", "memory")
    list_select_related = ("user", "memory")


@admin.register(models.DiaryEntry)
class DiaryEntryAdmin(NeutralLogAdmin, ReadOnlyAdmin):
    list_display = ("id", "user", "night", "narrative_short", "run", "created_at")
    list_filter = ("night",)
    search_fields = ("user__username", "narrative")
    raw_id_fields = ("user", "run", "memories")
    list_select_related = ("user", "run")
    date_hierarchy = "night"

    @admin.display(description=_("narrative"))
    def narrative_short(self, obj):
        return _short(obj.narrative, 100)


@admin.register(models.MemoryDocument)
class MemoryDocumentAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "persona", "version", "token_count", "token_budget", "rendered_at")
    list_filter = ("persona", "rendered_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "persona")
    list_select_related = ("user", "persona")


@admin.register(models.Tombstone)
class TombstoneAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "digest_short", "created_at")
    search_fields = ("user__username", "digest")
    raw_id_fields = ("user",)
    list_select_related = ("user",)

    @admin.display(description=_("digest"))
    def digest_short(self, obj):
        return f"{obj.digest[:12]}…"


@admin.register(models.MemorySettings)
class MemorySettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "enabled", "updated_at")
    list_filter = ("enabled",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


# --- Runs and model calls --------------------------------------------------------------------


@admin.register(models.DreamRun)
class DreamRunAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "phase", "status", "user", "started_at", "duration", "sessions_done", "sessions_skipped",
        "candidates_created", "unverified_rejected", "promoted", "pending", "llm_calls", "cost_usd", "dry_run",
    )
    list_filter = ("phase", "status", "dry_run", "started_at")
    search_fields = ("worker", "error", "user__username")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    date_hierarchy = "started_at"

    @admin.display(description=_("duration"))
    def duration(self, obj):
        seconds = obj.duration_seconds
        return gettext("running") if seconds is None else gettext("%(seconds).1f s") % {"seconds": seconds}


@admin.register(models.LLMCall)
class LLMCallAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "created_at", "phase", "task", "backend", "model", "status", "prompt_tokens", "completion_tokens",
        "cost_usd", "latency_ms", "user", "run",
    )
    list_filter = ("phase", "task", "backend", "model", "status", "created_at")
    search_fields = ("model", "error", "user__username")
    raw_id_fields = ("user", "run")
    list_select_related = ("user", "run")
    date_hierarchy = "created_at"


# --- Conversations: deleting one is the user's "delete conversation" -------------------------

admin.site.unregister(ChatSession)


@admin.register(ChatSession)
class ForgettingChatSessionAdmin(NeutralLogAdmin, ChatSessionAdmin):
    """chat/ cannot import dreaming, so the forget-aware delete is attached from here."""

    def delete_model(self, request, obj):
        conversation_delete(session=obj, by=obj.user)

    def delete_queryset(self, request, queryset):
        for session in queryset.select_related("user"):
            conversation_delete(session=session, by=session.user)
