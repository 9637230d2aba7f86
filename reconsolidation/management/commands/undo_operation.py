"""Undo one of a principal's merges or summaries by hand, with a replayable receipt."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from memory.errors import ReverieError
from reconsolidation.management.owners import principal_from_option
from reconsolidation.services.undo import operation_undo


class Command(BaseCommand):
    help = (
        "Undo the merge or summary --operation of the principal --owner (a username or public "
        "id) at --expected-revision, and print the receipt as JSON. Running it again with the "
        "same --idempotency-key prints the same receipt."
    )

    def add_arguments(self, parser):
        parser.add_argument("--owner", required=True)
        parser.add_argument("--operation", required=True, help="the operation's public id")
        parser.add_argument("--expected-revision", required=True, type=int)
        parser.add_argument("--idempotency-key", required=True)

    def handle(self, *args, **options):
        principal = principal_from_option(options["owner"])
        try:
            receipt = operation_undo(
                principal=principal,
                operation_id=options["operation"],
                expected_revision=options["expected_revision"],
                idempotency_key=options["idempotency_key"],
            )
        except ReverieError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        body = {
            "key": receipt.key,
            "action": receipt.action,
            "created_at": receipt.created_at,
            "result": receipt.result,
        }
        self.stdout.write(json.dumps(body, cls=DjangoJSONEncoder, indent=2, sort_keys=True))
