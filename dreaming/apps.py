from django.apps import AppConfig


class DreamingConfig(AppConfig):
    name = "dreaming"
    verbose_name = "Dreaming"

    def ready(self) -> None:
        # The admin lives with the other staff tools; Django's autodiscover only looks for dreaming.admin.
        from dreaming.staff import admin  # noqa: F401
