"""Evaluate reconsolidation on labelled synthetic banks; write results.json for `certify`."""

from django.core.management.base import BaseCommand, CommandError

from evaluation.reconsolidation_runner import (
    ARM,
    DEFAULT_FIXTURES,
    FixtureError,
    evaluate_reconsolidation,
)


class Command(BaseCommand):
    help = (
        "Load each labelled bank of the fixture into a fresh principal, run reconsolidation "
        "passes to completion, score what was derived (false and missed merges, privacy "
        "failures, preserved atomic recall, useful connections) and write DIR/results.json. "
        "Each case is rolled back afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("--fixtures", default=str(DEFAULT_FIXTURES), help="a JSON-lines file")
        parser.add_argument("--out", required=True, help="directory for the results")
        parser.add_argument("--k", type=int, default=10, help="recall depth (10)")

    def handle(self, *args, **options):
        if options["k"] < 1:
            raise CommandError("--k must be at least 1")
        try:
            results = evaluate_reconsolidation(
                options["fixtures"],
                k=options["k"],
                out_dir=options["out"],
                progress=self.stderr.write,
            )
        except FixtureError as error:
            raise CommandError(str(error)) from None
        metrics = results["arms"][ARM]
        k = options["k"]
        out = self.stdout.write
        out(f"reconsolidation on {results['meta']['dataset']} ({results['meta']['database']})")
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
        out(f"results: {options['out']}/results.json")
