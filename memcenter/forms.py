import zoneinfo

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from chat.models import Persona
from dreaming.models import Category, Feedback, Memory
from dreaming.memory.services import STATEMENT_MAX_CHARS

SORT_CHOICES = [
    ("confidence", _("Confidence")),
    ("recent", _("Most recent")),
    ("importance", _("Importance")),
]
CATEGORY_CHOICES = [
    (Category.FACT, _("Fact")),
    (Category.PREFERENCE, _("Preference")),
    (Category.EVENT, _("Event")),
    (Category.EMOTION, _("Emotion")),
    (Category.RELATION, _("Relation")),
]
STATUS_CHOICES = [
    (Memory.Status.ACTIVE, _("Active")),
    (Memory.Status.SUPERSEDED, _("Superseded")),
    (Memory.Status.ARCHIVED, _("Archived")),
    ("all", _("All")),
]
VERDICT_CHOICES = [
    (Feedback.Verdict.AGREE, _("Agree")),
    (Feedback.Verdict.DOUBT, _("Doubt")),
    (Feedback.Verdict.REJECT, _("Reject")),
]


class CenterForm(forms.Form):
    """Labels without Django's trailing colon: they sit above their fields."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class MemoryFilterForm(CenterForm):
    q = forms.CharField(label=_("Search"), required=False, max_length=200)
    category = forms.ChoiceField(label=_("Category"), required=False, choices=[("", _("All categories"))] + CATEGORY_CHOICES)
    scope = forms.ChoiceField(label=_("Scope"), required=False)
    status = forms.ChoiceField(label=_("Status"), required=False, choices=STATUS_CHOICES)
    sort = forms.ChoiceField(label=_("Sort by"), required=False, choices=SORT_CHOICES)

    def __init__(self, *args, personas=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scope"].choices = [("", _("All scopes")), ("profile", _("Profile (shared)"))] + [
            (str(p.pk), p.name) for p in personas
        ]

    def filters(self) -> dict:
        """Valid filters for dreaming.memory.selectors.memory_list; bad values fall back to the defaults."""
        data = {}
        if self.is_bound:
            self.is_valid()  # fills cleaned_data with the valid fields: a bad value drops only its own filter
            data = self.cleaned_data
        status = data.get("status") or Memory.Status.ACTIVE
        return {
            "q": (data.get("q") or "").strip() or None,
            "category": data.get("category") or None,
            "scope": data.get("scope") or None,
            "status": None if status == "all" else status,
            "sort": data.get("sort") or "confidence",
        }


class FeedbackForm(CenterForm):
    verdict = forms.ChoiceField(choices=Feedback.Verdict.choices)


class MemoryEditForm(CenterForm):
    statement = forms.CharField(
        label=_("What should be remembered"), max_length=STATEMENT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2, "autofocus": True}),
    )
    category = forms.ChoiceField(label=_("Category"), choices=CATEGORY_CHOICES)


class MemoryAddForm(MemoryEditForm):
    persona = forms.ModelChoiceField(
        label=_("Scope"), queryset=Persona.objects.all(), required=False,
        empty_label=_("Profile (shared by every persona)"),
    )


class ConfirmForm(CenterForm):
    """A no-JS confirm step: the box must be ticked, so a stray POST does not delete anything."""

    confirm = forms.BooleanField(label=_("Yes, delete it for good"), required=True)


class MemorySettingsForm(CenterForm):
    KEEP, DELETE = "keep", "delete"
    enabled = forms.BooleanField(label=_("Remember things from my conversations"), required=False)
    existing = forms.ChoiceField(
        label=_("When turning memory off, what happens to what is already remembered?"),
        choices=[(KEEP, _("Keep it (nothing is learned or recalled while memory is off)")), (DELETE, _("Delete everything now"))],
        initial=KEEP, widget=forms.RadioSelect, required=False,
    )
    time_zone = forms.ChoiceField(
        label=_("Your time zone"), required=False,
        help_text=_("The diary files each night under your own date."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [("", _("Server default (%(zone)s)") % {"zone": settings.TIME_ZONE})] + [
            (name, name) for name in sorted(zoneinfo.available_timezones())
        ]


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email (for password reset)"), required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def signup_enabled() -> bool:
    return settings.MEMCENTER_SIGNUP_ENABLED
