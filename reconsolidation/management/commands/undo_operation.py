"""Undo one of a principal's merges or summaries by hand, after its preview."""

import json
import sys
from argparse import ArgumentParser
from collections.abc import Iterator, Mapping
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from core.errors import ReverieError
from reconsolidation.management.owners import principal_from_option
from reconsolidation.selectors.operations import UndoPreview, original_statements, undo_preview
from reconsolidation.services.undo import operation_undo


def preview_lines(preview: UndoPreview, statements: Mapping[str, str]) -> Iterator[str]:
    yield f"{preview['kind']} {preview['id']}: {preview['state']}, revision {preview['revision']}"
    # Set exactly when the operation is not undoable.
    refusal = preview["refusal"]
    if refusal is not None:
        yield f"cannot be undone: {refusal['message']}"
        return
    yield "undo shows these memories on their own again (it never changed them):"
    for entry in preview["restores"]:
        yield f"  {entry['belief']} {statements.get(entry['belief'], '')}"
    if not preview["restores"]:
        yield "  none"
    if preview["does_not_restore"]:
        yield "and cannot bring these back:"
        for entry in preview["does_not_restore"]:
            yield f"  {entry['belief']} ({entry['status']}): {entry['reason']}"
    yield "it sets aside, erasing their generated text:"
    for output in preview["sets_aside"]:
        yield f"  {output['kind']} {output['id']} ({output['status']})"


class Command(BaseCommand):
    help = (
        "Show what undoing the merge or summary --operation of the principal --owner (a "
        "username or public id) would do (with the text of its memories: this is the machine "
        "administrator's command), ask, then undo it and print the receipt as JSON. "
        "--yes skips the question. --expected-revision defaults to the revision the preview "
        "showed; running it again with the same --idempotency-key prints the same receipt."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", required=True)
        parser.add_argument("--operation", required=True, help="the operation's public id")
        parser.add_argument("--expected-revision", type=int)
        parser.add_argument("--idempotency-key")
        parser.add_argument("--yes", action="store_true", help="undo without asking")

    def handle(self, *args: Any, **options: Any) -> None:
        principal = principal_from_option(options["owner"], command="undo_operation", changes=True)
        try:
            preview = undo_preview(principal, options["operation"])
        except ReverieError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        revision = options["expected_revision"] or preview["expected_revision"]
        statements = original_statements(
            principal, [entry["belief"] for entry in preview["restores"]]
        )
        # The preview on stderr, so that stdout holds only the receipt.
        for line in preview_lines(preview, statements):
            self.stderr.write(line)
        if not options["yes"]:
            if not preview["undoable"]:
                raise CommandError("nothing undone")
            if not sys.stdin.isatty():
                raise CommandError("nothing undone: add --yes to undo without being asked")
            if input("Undo it? [y/N] ").strip().lower() not in ("y", "yes"):
                raise CommandError("nothing undone")
        try:
            receipt = operation_undo(
                principal=principal,
                operation_id=options["operation"],
                expected_revision=revision,
                idempotency_key=options["idempotency_key"],
            )
        except ReverieError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        body = {
            "key": receipt.key,
            "action": receipt.action,
            "created_at": receipt.created_at,
            "replayed": receipt.replayed,
            "result": receipt.result,
        }
        self.stdout.write(json.dumps(body, cls=DjangoJSONEncoder, indent=2, sort_keys=True))
