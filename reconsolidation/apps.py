from django.apps import AppConfig


class ReconsolidationConfig(AppConfig):
    name = "reconsolidation"
    verbose_name = "Reconsolidation"

    def ready(self):
        from memory.changes import on_beliefs_retired

        from .services.invalidation import invalidate_dependents

        # Same transaction as the change: a corrected or deleted source never
        # leaves a derived memory standing, even for a moment.
        on_beliefs_retired(invalidate_dependents)
