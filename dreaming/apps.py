from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.core import checks


class DreamingConfig(AppConfig):
    name = "dreaming"
    verbose_name = _("Dreaming")

    def ready(self) -> None:
        # The admin lives with the other staff tools; Django's autodiscover only looks for dreaming.staff.admin.
        from dreaming.staff import admin  # noqa: F401


@checks.register()
def voyage_dimensions_check(app_configs=None, **kwargs):
    """A Voyage model asked for a vector size it cannot make fails every embedding call: say so at start-up."""
    from django.conf import settings

    if settings.EMBEDDING_BACKEND != "voyage":
        return []
    from dreaming.providers.voyage_embedder import voyage_dimensions_problem

    problem = voyage_dimensions_problem(model=settings.EMBEDDING_MODEL, dimensions=settings.EMBEDDING_DIM)
    return [checks.Error(problem, hint="Set EMBEDDING_DIM to a size the model makes, then run `manage.py reembed`.",
                         id="dreaming.E001")] if problem else []
