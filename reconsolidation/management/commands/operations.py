"""List a principal's reconsolidation operations: ids, kinds, states and times."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from common.principal import principal_context
from core.errors import ReverieError
from reconsolidation.management.owners import principal_from_option
from reconsolidation.selectors.operations import operation_list


class Command(BaseCommand):
    help = (
        "List the reconsolidation operations of the principal --owner (a username or public "
        "id), newest first: id, kind, state, revision and times. Undo one with "
        "`manage.py undo_operation --owner NAME --operation ID`."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", required=True)
        parser.add_argument("--kind", help="merge, summary, hypothesis or uncertainty_notice")
        parser.add_argument("--state", help="planned, applied, invalidated, undone or failed")
        parser.add_argument("--limit", type=int, default=100, help="at most this many (100)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        principal = principal_from_option(options["owner"], command="operations")
        with principal_context(principal):
            try:
                operations = list(
                    operation_list(principal, kind=options["kind"], state=options["state"])[
                        : options["limit"]
                    ]
                )
            except ReverieError as error:
                raise CommandError(f"{error.code}: {error.message}") from None
        if not operations:
            self.stdout.write("no operations")
            return
        self.stdout.write(
            f"{'id':<36}  {'kind':<18}  {'state':<11}  {'rev':>3}  {'created':<16}  changed"
        )
        for operation in operations:
            self.stdout.write(
                f"{operation.public_id!s:<36}  {operation.kind:<18}  {operation.state:<11}  "
                f"{operation.revision:>3}  {operation.created_at:%Y-%m-%d %H:%M}  "
                f"{operation.updated_at:%Y-%m-%d %H:%M}"
            )
