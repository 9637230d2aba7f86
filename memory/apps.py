from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self):
        from accounts.onboarding import register_password_page
        from common.schedules import maintenance_extend

        from . import (
            checks,  # noqa: F401  (registers the system checks)
            maintenance,
        )
        from .api import schema  # noqa: F401  (registers the OpenAPI extensions)
        from .review.password import password_set_path

        # Memory's sweeps in the shared maintenance slot.
        maintenance_extend(schedules=maintenance.schedules, run_once=maintenance.run_once)

        # The links accounts issues open the review site's page, which accounts cannot name.
        register_password_page(password_set_path)
