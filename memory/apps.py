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
        from .changes import on_beliefs_retired
        from .services.vectors import beliefs_retired_forget

        # A memory no longer recalled, or erased, keeps no vector: in the same transaction.
        on_beliefs_retired(beliefs_retired_forget)

        # Memory's sweeps in the shared maintenance slot.
        maintenance_extend(schedules=maintenance.schedules, run_once=maintenance.run_once)
