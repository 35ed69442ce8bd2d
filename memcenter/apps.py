from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemcenterConfig(AppConfig):
    name = "memcenter"
    verbose_name = _("Memory center")
