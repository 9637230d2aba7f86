from django.apps import AppConfig


class ProvidersConfig(AppConfig):
    name = "providers"
    verbose_name = "Language-model providers"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
