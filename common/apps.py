from django.apps import AppConfig


class CommonConfig(AppConfig):
    """The layer every app builds on: the principal context, the API's errors and request
    limits, flags, schedules, health and the migration operations of row security."""

    name = "common"
    verbose_name = "Service"

    def ready(self) -> None:
        from accounts.onboarding import register_password_page

        from .review.password import password_set_path

        # The links accounts issues open the review site's page, which accounts cannot name.
        register_password_page(password_set_path)
