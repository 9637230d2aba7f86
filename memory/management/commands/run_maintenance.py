from django.core.management.base import BaseCommand

from accounts.login_throttle import login_throttle_purge
from memory.schedules import maintenance_run_once_hooks
from memory.services.access_log import access_record_purge_sweep
from memory.services.expiry import belief_expiry_sweep
from memory.services.idempotency import idempotency_purge_sweep


class Command(BaseCommand):
    help = (
        "Run the maintenance sweeps (formation, expiry, idempotency, access-record and sign-in "
        "counter purges, reconsolidation) once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--once",
            action="store_true",
            required=True,
            help="Run one sweep and exit (the schedule runs them in the worker).",
        )

    def handle(self, *args, **options):
        # The maintenance of apps built on memory (formation, reconsolidation) first, in
        # the order they are installed: formation consolidates before anything expires.
        for run_once in maintenance_run_once_hooks():
            self.stdout.write(run_once())
        self.stdout.write(f"expiry: {belief_expiry_sweep()} memory(ies) expired")
        self.stdout.write(f"idempotency: {idempotency_purge_sweep()} expired record(s) purged")
        self.stdout.write(f"access: {access_record_purge_sweep()} record(s) past retention purged")
        self.stdout.write(f"sign-in: {login_throttle_purge()} expired counter(s) purged")
