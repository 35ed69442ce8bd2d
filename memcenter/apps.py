from django.apps import AppConfig


class MemcenterConfig(AppConfig):
    name = "memcenter"
    verbose_name = "Memory center"
