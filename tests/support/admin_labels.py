"""Every label the admin shows for the project's own models: verbose names, help texts, choices, column
and fieldset titles, filter titles and actions — read from the admin registry, so a label added later is
checked too."""
from django.contrib import admin
from django.contrib.admin import SimpleListFilter
from django.utils import translation

APPS = ("chat", "dreaming", "axes")  # axes ships no Chinese: memcenter/third_party_labels.py
NAMES = {"Axes"}  # an app's name (a plain str in its AppConfig), the same in every language


def _field_labels(model) -> list:
    labels = [model._meta.verbose_name, model._meta.verbose_name_plural, model._meta.app_config.verbose_name]
    for field in model._meta.get_fields():
        if field.auto_created or not hasattr(field, "verbose_name"):
            continue
        labels += [field.verbose_name, getattr(field, "help_text", "")]
        labels += [label for _value, label in getattr(field, "flatchoices", None) or []]
    return labels


def _admin_labels(model_admin) -> list:
    labels = _field_labels(model_admin.model)
    for name in [*getattr(model_admin, "list_display", ()), *model_admin.readonly_fields]:
        labels.append(getattr(getattr(model_admin, name, None), "short_description", ""))
    labels += [title for title, _options in model_admin.fieldsets or () if title]
    labels += [f.title for f in getattr(model_admin, "list_filter", ()) if isinstance(f, type)
               and issubclass(f, SimpleListFilter)]
    for action in getattr(model_admin, "actions", None) or ():
        labels.append(getattr(getattr(model_admin, action, None), "short_description", ""))
    return [label for label in labels if label]


def admin_labels() -> list:
    """The (lazy) labels of every admin of APPS, inlines included."""
    labels = []
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label in APPS:
            labels += _admin_labels(model_admin)
            labels += [label for inline in model_admin.inlines for label in _admin_labels(inline(model, admin.site))]
    return labels


def untranslated_labels() -> set[str]:
    """The English labels that read the same in Chinese (a plain str, or a msgid missing from the catalogue)."""
    same = set()
    for label in admin_labels():
        with translation.override("en"):
            english = str(label)
        with translation.override("zh-hans"):
            if str(label) == english and english not in NAMES:
                same.add(english)
    return same


def english_labels() -> set[str]:
    """Every label in English, casefolded: what must not be read on a Chinese admin page."""
    with translation.override("en"):
        return {str(label).strip().casefold() for label in admin_labels()} - {name.casefold() for name in NAMES}
