from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from accounts.login_throttle import login_throttle_purge
from common.schedules import maintenance_run_once_hooks


class Command(BaseCommand):
    help = (
        "Run the maintenance sweeps (formation, expiry, idempotency, access-record and sign-in "
        "counter purges, reconsolidation) once."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--once",
            action="store_true",
            required=True,
            help="Run one sweep and exit (the schedule runs them in the worker).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # The apps' maintenance in the order they are installed (memory, formation,
        # reconsolidation), then the sign-in counters'.
        for run_once in maintenance_run_once_hooks():
            self.stdout.write(run_once())
        self.stdout.write(f"sign-in: {login_throttle_purge()} expired counter(s) purged")
