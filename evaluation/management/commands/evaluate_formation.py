"""Evaluate provider-assisted formation against the deterministic extractor; write
results.json for `certify --capability formation_provider`."""

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.formation_evaluation import HELDOUT, PROVIDER, InputError, evaluate_formation

FIGURES = (
    "facts",
    "coverage_deterministic",
    "coverage",
    "coverage_lift",
    "model_accepted",
    "fabricated",
    "heldout_items",
    "heldout_precision_deterministic",
    "heldout_precision",
    "heldout_precision_margin",
    "heldout_recall",
    "unsafe_stored",
)


class Command(BaseCommand):
    help = (
        "Run the deterministic extractor and the same assisted by the configured provider "
        "over the LoCoMo conversations (formation coverage) and the held-out labelled corpus "
        "(precision), storing nothing, and write DIR/results.json. Calls the provider once "
        "per LoCoMo session and speaker and once per corpus message, within formation's "
        "budget and the global daily spend cap."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--locomo", required=True, help="LoCoMo JSON file")
        parser.add_argument("--heldout", default=str(HELDOUT), help="labelled corpus (JSON lines)")
        parser.add_argument("--out", required=True, help="directory for the results")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            results = evaluate_formation(
                locomo=options["locomo"], heldout=options["heldout"], out_dir=options["out"]
            )
        except InputError as error:
            raise CommandError(str(error)) from None
        metrics = results["arms"][PROVIDER]
        self.stdout.write(
            f"formation with {results['meta']['provider']} vs the deterministic extractor"
        )
        for name in FIGURES:
            self.stdout.write(f"  {name}: {metrics[name]}")
        self.stdout.write(f"results: {Path(options['out']) / 'results.json'}")
