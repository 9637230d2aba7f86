from django.apps import AppConfig


class CommonConfig(AppConfig):
    """The layer every app builds on: the principal context, the API's errors and request
    limits, flags, schedules, health and the migration operations of row security."""

    name = "common"
    verbose_name = "Service"
