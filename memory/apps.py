from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self) -> None:
        from common.schedules import maintenance_extend

        from . import (
            checks,  # noqa: F401  (registers the system checks)
            maintenance,
        )
        from .api import schema  # noqa: F401  (registers the OpenAPI extensions)

        # Memory's sweeps in the shared maintenance slot.
        maintenance_extend(schedules=maintenance.schedules, run_once=maintenance.run_once)
