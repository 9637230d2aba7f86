"""Import a conversation dataset (LoCoMo format) into Reverie, one principal per speaker."""

import sys
from argparse import ArgumentParser
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

from evaluation.locomo import DatasetError, read_dataset
from evaluation.services.importer import import_conversations

FORMATS = ("locomo",)


class ProgressBar:
    """A one-line progress bar on a terminal, occasional lines elsewhere."""

    WIDTH = 30

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream, self.label = stream, label
        self.tty = stream.isatty()
        self.last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        line = f"{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total}"
        if self.tty:
            self.stream.write(f"\r{line}" + ("\n" if done == total else ""))
            self.stream.flush()
        elif (tenth := 10 * done // max(total, 1)) != self.last_tenth:
            self.last_tenth = tenth
            self.stream.write(line + "\n")


class Command(BaseCommand):
    help = (
        "Import a conversation dataset: one principal per (conversation, speaker), each with "
        "its own copy of every session, closed on import. Running it again changes nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the dataset file")
        parser.add_argument("--format", choices=FORMATS, default="locomo")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            dataset = read_dataset(options["file"])
        except DatasetError as error:
            raise CommandError(str(error)) from None
        progress = None if options["quiet"] else ProgressBar(sys.stderr, "sessions")
        report = import_conversations(dataset, progress=progress)
        out = self.stdout.write
        out(f"dataset {dataset.digest[:12]}: {len(dataset.conversations)} conversations")
        out(
            f"principals: {report.principals_created} created, "
            f"{report.principals_existing} existing"
        )
        out(
            f"sessions: {report.sessions_created} imported, "
            f"{report.sessions_existing} already there"
        )
        out(f"messages appended: {report.events_appended}")
        out(f"questions: {report.questions}; observation facts: {report.facts}")
        for quirk, count in sorted(report.quirks.items()):
            out(f"tolerated: {count} {quirk}")
