"""Run one bounded reconsolidation pass over one principal's memory bank by hand."""

from django.core.management.base import BaseCommand, CommandError

from reconsolidation.management.owners import principal_from_option
from reconsolidation.services.passes import reconsolidation_pass


class Command(BaseCommand):
    help = (
        "Run one bounded reconsolidation pass over the bank of the principal --owner (a "
        "username or public id) and print what it did. The kill switch stops it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--owner", required=True)
        parser.add_argument("--once", action="store_true", help="one pass (the only mode)")
        parser.add_argument("--slice", type=int, help="beliefs read at most")

    def handle(self, *args, **options):
        if options["slice"] is not None and options["slice"] < 1:
            raise CommandError("--slice must be at least 1")
        principal = principal_from_option(options["owner"])
        report = reconsolidation_pass(principal=principal, slice_size=options["slice"])
        if not report.leased:
            self.stdout.write(f"nothing done: {report.stopped.replace('_', ' ')}")
            return
        outcomes = ", ".join(f"{n} {o}" for o, n in sorted(report.outcomes.items())) or "none"
        self.stdout.write(
            f"read {report.read} memories; planned {report.planned} operations; "
            f"outcomes: {outcomes}"
            + ("; full scan completed" if report.full_scan_completed else "")
            + (f"; stopped: {report.stopped}" if report.stopped else "")
        )
