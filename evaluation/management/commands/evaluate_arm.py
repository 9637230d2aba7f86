"""Run one evaluation arm against the configured (fresh) database; used by ``evaluate``."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from evaluation.arms import ARMS, run_arm
from evaluation.locomo import DatasetError, read_dataset
from evaluation.paraphrase import ParaphraseError, read_paraphrase


class Command(BaseCommand):
    help = (
        "Migrate the configured database, import FILE and the --paraphrase set, form "
        "memories if the arm does, ask every question and write what came back to --out. "
        "`evaluate` runs this once per arm, each against a fresh database."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", nargs="?", help="a LoCoMo-format dataset")
        parser.add_argument("--arm", required=True, choices=sorted(ARMS))
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--out", required=True)
        parser.add_argument("--paraphrase", help="the paraphrase set (evaluation.paraphrase)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["k"] < 1:
            raise CommandError("--k must be at least 1")
        if not options["file"] and not options["paraphrase"]:
            raise CommandError("give a dataset FILE, --paraphrase, or both")
        try:
            dataset = read_dataset(options["file"]) if options["file"] else None
            paraphrase = (
                read_paraphrase(Path(options["paraphrase"])) if options["paraphrase"] else None
            )
        except (DatasetError, ParaphraseError) as error:
            raise CommandError(str(error)) from None
        call_command("migrate", verbosity=0, interactive=False)
        record = run_arm(ARMS[options["arm"]], dataset, k=options["k"], paraphrase=paraphrase)
        Path(options["out"]).write_text(json.dumps(record), encoding="utf-8")
