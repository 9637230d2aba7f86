"""Evaluate provider-assisted formation against the deterministic extractor; write
results.json for `certify --capability formation_provider`."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from evaluation.formation_evaluation import HELDOUT, PROVIDER, formation_results
from evaluation.management.commands.import_conversations import read_dataset
from memory.formation.hybrid import HybridExtractor
from memory.formation.scoring import load_corpus
from memory.providers.config import provider_config
from memory.services.formation import configured_extractor

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


def _read(path):
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None


class Command(BaseCommand):
    help = (
        "Run the deterministic extractor and the same assisted by the configured provider "
        "over the LoCoMo conversations (formation coverage) and the held-out labelled corpus "
        "(precision), storing nothing, and write DIR/results.json. Calls the provider once "
        "per LoCoMo session and speaker and once per corpus message, within formation's "
        "budget and the global daily spend cap."
    )

    def add_arguments(self, parser):
        parser.add_argument("--locomo", required=True, help="LoCoMo JSON file")
        parser.add_argument("--heldout", default=str(HELDOUT), help="labelled corpus (JSON lines)")
        parser.add_argument("--out", required=True, help="directory for the results")

    def handle(self, *args, **options):
        config = provider_config()
        if config is None:
            raise CommandError(
                "no provider is configured: set REVERIE_PROVIDER_BASE_URL and "
                "REVERIE_PROVIDER_MODEL (`manage.py fake_provider` serves a fake one)"
            )
        dataset_bytes = _read(options["locomo"])
        dataset = read_dataset(options["locomo"])
        heldout_bytes = _read(options["heldout"])
        try:
            heldout = load_corpus(options["heldout"])
        except (ValueError, KeyError, TypeError) as error:
            raise CommandError(f"{options['heldout']} is not a labelled corpus: {error}") from None
        deterministic = configured_extractor()
        assisted = HybridExtractor(configured_extractor(), config=config, evaluation=True)
        results = formation_results(
            dataset=dataset,
            dataset_bytes=dataset_bytes,
            heldout=heldout,
            heldout_bytes=heldout_bytes,
            deterministic=deterministic,
            assisted=assisted,
            provider=config.binding,
        )
        out_dir = Path(options["out"])
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True))
        metrics = results["arms"][PROVIDER]
        self.stdout.write(f"formation with {config.binding} vs the deterministic extractor")
        for name in FIGURES:
            self.stdout.write(f"  {name}: {metrics[name]}")
        self.stdout.write(f"results: {out_dir / 'results.json'}")
