"""Staff admin for conversations, personas and API keys.

chat/ may not import dreaming (import direction chat → dreaming → memcenter), so dreaming/staff/admin.py
re-registers ChatSession with a subclass whose delete goes through the memory center's
`conversation_delete` (memories the conversation alone taught are forgotten with it).
"""
from django.contrib import admin, messages
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy as _, ngettext_lazy

from chat import models

RELEASED = ngettext_lazy("Released %(n)d claim.", "Released %(n)d claims.", "n")
REVOKED = ngettext_lazy("Revoked %(n)d key.", "Revoked %(n)d keys.", "n")


@admin.register(models.Persona)
class PersonaAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}


class MessageInline(admin.TabularInline):
    model = models.Message
    extra = 0
    fields = ("seq", "role", "content", "created_at")
    readonly_fields = fields
    show_change_link = True
    max_num = 0  # messages arrive through the API or an import, never typed in by staff

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.ChatSession)
class ChatSessionAdmin(admin.ModelAdmin):
    list_display = (
        "id", "__str__", "user", "persona", "source", "last_active_at", "message_count", "dreamed_at",
        "triage_kind", "skipped", "attempts", "has_error",
    )
    list_filter = ("triage_kind", "skipped", "source", "persona", ("dreamed_at", admin.EmptyFieldListFilter),
                   "last_active_at")
    search_fields = ("external_id", "title", "user__username", "triage_reason", "last_error")
    list_select_related = ("user", "persona")
    raw_id_fields = ("user", "persona")
    readonly_fields = (
        "created_at", "claimed_at", "claimed_by", "dreamed_at", "processed_seq", "attempts", "last_error",
        "triage_kind", "triage_reason", "skipped", "candidates_link",
    )
    date_hierarchy = "last_active_at"
    inlines = (MessageInline,)
    actions = ("release_claim",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_messages=Count("messages"))

    @admin.display(description=_("messages"), ordering="n_messages")
    def message_count(self, obj):
        return obj.n_messages

    @admin.display(description=_("error"), boolean=True)
    def has_error(self, obj):
        return bool(obj.last_error)

    @admin.display(description=_("candidates"))
    def candidates_link(self, obj):
        url = reverse("admin:dreaming_candidate_changelist") + f"?session__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, gettext("candidates heard in this conversation"))

    @admin.action(description=_("Release a stuck claim (light sleep picks it up again)"))
    def release_claim(self, request, queryset):
        n = queryset.exclude(claimed_at=None).update(claimed_at=None, claimed_by="")
        self.message_user(request, RELEASED % {"n": n}, messages.SUCCESS)


@admin.register(models.Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "seq", "role", "content_short", "created_at")
    list_filter = ("role", "created_at")
    search_fields = ("content", "session__external_id", "session__user__username")
    list_select_related = ("session",)
    raw_id_fields = ("session",)

    @admin.display(description=_("content"))
    def content_short(self, obj):
        return Truncator(obj.content).chars(100)


@admin.register(models.Client)
class ClientAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)


@admin.register(models.ClientUser)
class ClientUserAdmin(admin.ModelAdmin):
    list_display = ("username", "client", "user", "created_at")
    list_filter = ("client",)
    search_fields = ("username", "user__username")
    list_select_related = ("client", "user")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at",)


@admin.register(models.ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ("name", "client", "prefix", "created_at", "last_used_at", "revoked_at", "active")
    list_filter = ("client", ("revoked_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "prefix", "client__name")
    readonly_fields = ("client", "prefix", "hashed_key", "created_at", "last_used_at", "revoked_at")
    actions = ("revoke",)

    def has_add_permission(self, request):
        return False  # the secret is shown once: create keys with `manage.py create_api_key`

    @admin.display(description=_("active"), boolean=True)
    def active(self, obj):
        return obj.is_active

    @admin.action(description=_("Revoke selected keys"))
    def revoke(self, request, queryset):
        n = queryset.filter(revoked_at=None).update(revoked_at=timezone.now())
        self.message_user(request, REVOKED % {"n": n}, messages.SUCCESS)
