from django.apps import AppConfig


class FormationConfig(AppConfig):
    name = "formation"
    verbose_name = "Formation"

    def ready(self) -> None:
        from common.schedules import maintenance_extend

        from . import maintenance

        # The sweep runs in memory's maintenance slot without memory importing this app.
        maintenance_extend(schedules=maintenance.schedules, run_once=maintenance.run_once)

        from memory.selectors.operations import overview_extend

        from .overview import formation_overview

        # Formation's figures on the operators' overview.
        overview_extend(formation_overview)

        from memory.services.account import account_export_extend, account_purge_extend

        from .challenge_selectors import challenges_export
        from .erasure import formation_purge

        # Erasing an account erases what formation kept of it; the export holds the
        # challenges waiting for the owner or decided.
        account_purge_extend(formation_purge)
        account_export_extend(challenges_export)

        from memory.changes import on_beliefs_retired, on_messages_erased

        from .challenges import challenges_erased_messages, challenges_retired

        # A challenge goes with the memory it challenges and the messages it cites, in the
        # same transaction.
        on_beliefs_retired(challenges_retired)
        on_messages_erased(challenges_erased_messages)

        from .review import review_register

        # What formation could not form, on the owner's conversation pages.
        review_register()

        from providers.fake import fake_answers_register

        from .fake_answers import ANSWERS

        # The fake provider answers formation's requests without knowing them.
        for schema_name, answers in ANSWERS.items():
            fake_answers_register(schema_name, answers)
