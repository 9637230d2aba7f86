"""Benchmark a full reconsolidation pass at two bank sizes on PostgreSQL
(``benchmarks.reconsolidation``); print time and memory."""

import os
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.reconsolidation import (
    RESTATED,
    TARGET_RATIO,
    TARGET_SECONDS,
    PassResult,
    reconsolidation_measure,
    reconsolidation_record,
)
from benchmarks.records import record_write


class Command(BenchmarkCommand):
    help = (
        "Seed one principal with each bank size (restatements included) and time a full "
        "reconsolidation pass over it; print time, peak memory and the ratio between sizes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sizes", default="10000,100000")
        parser.add_argument("--slice", type=positive_int, default=None)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--json-out",
            metavar="PATH",
            help="Also write the figures, the targets and peak memory as one JSON object.",
        )

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        try:
            sizes = [int(size) for size in options["sizes"].split(",")]
        except ValueError:
            raise CommandError("--sizes takes comma-separated integers") from None
        if len(sizes) != 2 or not 0 < sizes[0] < sizes[1]:
            raise CommandError("--sizes takes two increasing sizes, e.g. 10000,100000")
        results = [
            reconsolidation_measure(
                size, seed=options["seed"], slice_size=options["slice"], progress=self.progress
            )
            for size in sizes
        ]
        self._report(results, options)
        if options["json_out"]:
            record_write(options["json_out"], reconsolidation_record(results, options["seed"]))

    def _report(self, results: Sequence[PassResult], options: Mapping[str, Any]) -> None:
        write = self.stdout.write
        version = self.server_version(connections[DEFAULT_DB_ALIAS])
        write(
            f"PostgreSQL {version}; {os.cpu_count()} CPUs; one principal per size; "
            f"{RESTATED:.0%} restatements; seed {options['seed']}"
        )
        write("")
        write(
            f"{'beliefs':>9} {'seconds':>9} {'passes':>7} {'merges':>7} {'summaries':>9} "
            f"{'hypotheses':>10} {'peak RSS':>10}"
        )
        for row in results:
            write(
                f"{row['size']:>9,} {row['seconds']:>9.2f} {row['passes']:>7} "
                f"{row['merged']:>7,} {row['summaries']:>9,} {row['hypotheses']:>10,} "
                f"{row['peak_mib']:>7.1f} MiB"
            )
        small, large = results
        ratio = large["seconds"] / small["seconds"]
        growth = large["size"] / small["size"]
        write("")
        write(
            f"time ratio {ratio:.2f}x for {growth:.0f}x the beliefs "
            f"(target <= {TARGET_RATIO:.0f}x): {'PASS' if ratio <= TARGET_RATIO else 'FAIL'}"
        )
        write(
            f"full pass over {large['size']:,}: {large['seconds']:.1f} s "
            f"(target < {TARGET_SECONDS:.0f} s): "
            f"{'PASS' if large['seconds'] < TARGET_SECONDS else 'FAIL'}"
        )
