from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self):
        from . import checks  # noqa: F401  (registers the system checks)
        from .api import schema  # noqa: F401  (registers the OpenAPI extensions)
