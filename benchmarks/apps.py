from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Development only: seeding and timing commands, installed when DEBUG is on."""

    name = "benchmarks"
