"""Run the benchmarks several times on PostgreSQL and print one table of medians."""

import argparse
import json
import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks.command import BenchmarkCommand
from benchmarks.suite import (
    BENCHMARKS,
    benchmark_environment,
    suite_run,
    table_format,
    table_notes,
    table_rows,
)


def runs_count(value: str) -> int:
    """An ``argparse`` type: how many times to run each benchmark, at least once."""
    try:
        runs = int(value)
    except ValueError:
        runs = 0
    if runs < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return runs


class Command(BenchmarkCommand):
    help = (
        "Run the recall, API load, formation and reconsolidation benchmarks "
        "(benchmarks/run_*.sh, PostgreSQL) "
        "--runs times each and print one table: the median of each figure with its range, the "
        "same-run baseline and ratio, the target, the verdict and peak memory."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("benchmark", choices=("all", *BENCHMARKS))
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--quick",
            dest="mode",
            action="store_const",
            const="quick",
            help="Small sizes: recall at 10,000/principal, load phases of 5 s, 200 sessions.",
        )
        mode.add_argument(
            "--full",
            dest="mode",
            action="store_const",
            const="full",
            help="The targets' sizes (the default): recall at 10,000 and 100,000/principal, "
            "two rounds of 10 s load phases, 1,000 sessions.",
        )
        parser.set_defaults(mode="full")
        parser.add_argument("--runs", type=runs_count, default=3, help="Runs of each (3).")
        parser.add_argument(
            "--json-out", metavar="PATH", help="Also write the table and every run's record."
        )

    # Each benchmark script runs in, and guards, a database of its own.
    database_prefix = None

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        started = time.monotonic()
        out_dir = settings.VAR_DIR / "benchmarks"
        records = suite_run(
            options["benchmark"],
            options["mode"],
            runs=options["runs"],
            out_dir=out_dir,
            env=benchmark_environment(),
            cwd=settings.BASE_DIR,
            progress=self.progress,
            echo=self.stderr.write if options["verbosity"] >= 2 else None,
        )
        rows = table_rows(records)
        notes = table_notes(records, rows)
        seconds = time.monotonic() - started

        out = self.stdout.write
        minutes, rest = divmod(round(seconds), 60)
        out(
            f"benchmark {options['benchmark']} --{options['mode']}: median of {options['runs']} "
            f"runs each; wall time {minutes} min {rest} s"
        )
        out("")
        out(table_format(rows))
        out("")
        for note in notes:
            out(f"- {note}")
        out(f"- each run's record and output: {out_dir}/")
        if options["json_out"]:
            summary = {
                "benchmark": options["benchmark"],
                "mode": options["mode"],
                "runs": options["runs"],
                "seconds": round(seconds, 1),
                "rows": rows,
                "notes": notes,
                "records": records,
            }
            with open(options["json_out"], "w") as handle:
                json.dump(summary, handle, indent=2, sort_keys=True)
                handle.write("\n")
