"""Evaluate reconsolidation on labelled synthetic banks; write results.json for `certify`."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.reconsolidation_runner import (
    ARM,
    DEFAULT_FIXTURES,
    RECONSOLIDATION_ARMS,
    FixtureError,
    evaluate_reconsolidation,
)


class Command(BaseCommand):
    help = (
        "Load each labelled bank of the fixture into a fresh principal, run reconsolidation "
        "passes to completion, score what was derived (false and missed merges, privacy "
        "failures, preserved atomic recall, useful connections) and write DIR/results.json. "
        "Arms: control (the originals alone, frozen first in DIR/control.json), "
        "reconsolidation (the deterministic passes) and reconsolidation_provider (the "
        "passes and model-assisted reviews against the configured provider). Nothing of a "
        "case is kept afterwards."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--fixtures", default=str(DEFAULT_FIXTURES), help="a JSON-lines file")
        parser.add_argument("--out", required=True, help="directory for the results")
        parser.add_argument("--k", type=int, default=10, help="recall depth (10)")
        parser.add_argument(
            "--arms",
            default=ARM,
            help=f"comma-separated, of {', '.join(RECONSOLIDATION_ARMS)} ({ARM})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["k"] < 1:
            raise CommandError("--k must be at least 1")
        arms = tuple(arm.strip() for arm in options["arms"].split(",") if arm.strip())
        try:
            results = evaluate_reconsolidation(
                options["fixtures"],
                k=options["k"],
                out_dir=options["out"],
                arms=arms,
                progress=self.stderr.write,
            )
        except FixtureError as error:
            raise CommandError(str(error)) from None
        for arm, metrics in results["arms"].items():
            self._report(arm, metrics, results, options["k"])
        calls = results["meta"].get("provider_calls")
        if calls is not None:
            self.stdout.write(
                f"provider calls: {calls['calls']} {calls['states']}, charged "
                f"${calls['charged_micros'] / 1_000_000:.6f} (uncertain, kept in full: "
                f"${calls['uncertain_micros'] / 1_000_000:.6f})"
            )
        self.stdout.write(f"results: {options['out']}/results.json")

    def _report(self, arm: str, metrics: dict[str, Any], results: dict[str, Any], k: int) -> None:
        out = self.stdout.write
        out(f"{arm} on {results['meta']['dataset']} ({results['meta']['database']})")
        for name in (
            "cases",
            "failed",
            "merges",
            "false_merges",
            "labelled_merges",
            "missed_merges",
            "merge_recall",
            "labelled_notices",
            "missed_notices",
            "privacy_failures",
            f"atomic_recall@{k}_control",
            f"atomic_recall@{k}_derived",
            "atomic_recall_drop",
            "connections_labelled",
            "connections_proposed",
            "connections_found",
            "connection_precision",
            "connection_recall",
        ):
            value = metrics[name]
            out(f"  {name:<28} {'-' if value is None else value}")
        out(f"  {'derived':<28} {metrics['derived']}")
        if metrics["trap_violations"]:
            out(f"  {'trap_violations':<28} {metrics['trap_violations']}")
