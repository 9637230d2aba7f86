from django.apps import AppConfig


class ReconsolidationConfig(AppConfig):
    name = "reconsolidation"
    verbose_name = "Reconsolidation"

    def ready(self) -> None:
        from memory.changes import on_beliefs_retired

        from .services.invalidation import invalidate_dependents

        # Same transaction as the change: a corrected or deleted source never
        # leaves a derived memory standing, even for a moment.
        on_beliefs_retired(invalidate_dependents)

        from memory.selectors.recall import register_recall_source

        from .selectors.recall import (
            KIND,
            derived_meaning_search,
            derived_recall_search,
            derived_recall_select,
        )

        # Opt-in: recall names it in ``include`` without importing this app, searches it
        # in the same statement as its own candidates, by meaning beside its own memories,
        # and reads what it found with theirs.
        register_recall_source(
            KIND,
            search=derived_recall_search,
            select=derived_recall_select,
            meaning=derived_meaning_search,
        )

        from memory.services.vectors import vectors_register

        from .search import DERIVED_EMBEDDABLE, DERIVED_MEMORIES

        # Derived memories get vectors from memory's sweep, restricted ones too: the owner
        # may lift the restriction without changing what they say.
        vectors_register(DERIVED_MEMORIES, text="a.statement", embeddable=DERIVED_EMBEDDABLE)

        from memory.search import on_forget_erased

        from .search import derived_forget_erased

        # Erasure forgets the erased words in this app's own index too.
        on_forget_erased(derived_forget_erased)

        from common.schedules import maintenance_extend

        from . import maintenance

        # The tick runs in memory's maintenance slot without memory importing this app.
        maintenance_extend(schedules=maintenance.schedules, run_once=maintenance.run_once)

        from memory.derived import register_derived_surface

        from .derived_surface import surface

        # Derived memories on memory's own surfaces: the memory list, the export, the
        # review queue and each memory's page.
        register_derived_surface(surface)

        from .review import review_register

        # The Synthesis and Operations sections of the owner review site.
        review_register()

        from providers.fake import fake_answers_register

        from .assisted.fake_answers import ANSWERS

        # The fake provider answers reconsolidation's requests without knowing them.
        for schema_name, answers in ANSWERS.items():
            fake_answers_register(schema_name, answers)
