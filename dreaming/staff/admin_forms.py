"""Admin form pieces that read well to a screen reader (axe-core checks every admin page)."""
from django.contrib import admin


class LabelledTabularInline(admin.TabularInline):
    """A tabular inline whose every box carries its column's name: a table header is not a label."""

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)

        class Labelled(formset):
            def add_fields(self, form, index):
                super().add_fields(form, index)
                for name, field in form.fields.items():
                    field.widget.attrs.setdefault("aria-label", str(field.label or name))

        return Labelled
