"""Benchmark recall against an unindexed ``icontains`` baseline on PostgreSQL
(``benchmarks.recall``).

See docs/benchmarks.md for how to run it and how to read its output.
"""

import os
import statistics
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.corpus import Corpus, Query
from benchmarks.recall import (
    TARGET_P95_MS,
    RecallOptions,
    Server,
    SizeResult,
    bench_beliefs_delete,
    bench_principals,
    recall_record,
    size_measure,
    sizes_left,
)
from benchmarks.records import record_write
from benchmarks.vectors import vector_pool
from memory.embeddings import local_embedder


def _sizes(value: str) -> list[int]:
    sizes = sorted({positive_int(part.strip().replace("_", "")) for part in value.split(",")})
    if not sizes:
        raise CommandError("--sizes needs at least one size.")
    return sizes


class Command(BenchmarkCommand):
    help = (
        "Seed a reverie_bench* PostgreSQL database with synthetic beliefs and print recall "
        "latency (p50/p95) through the selector and an unindexed icontains baseline."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--sizes",
            type=_sizes,
            default=[10_000, 100_000],
            help="Beliefs per principal, comma-separated, grown in ascending order "
            "(default: 10000,100000).",
        )
        parser.add_argument("--principals", type=positive_int, default=10)
        parser.add_argument("--queries", type=positive_int, default=200)
        parser.add_argument("--warmup", type=int, default=100, help="Untimed queries per method.")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--limit", type=positive_int, default=10)
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="Keep the bench principals' beliefs from an earlier run with the same seed "
            "and only add what is missing; sizes below what a bank already holds are skipped "
            "(default: delete them and seed afresh).",
        )
        parser.add_argument(
            "--json-out",
            metavar="PATH",
            help="Also write the figures, the target and peak memory as one JSON object.",
        )

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        chosen = RecallOptions(
            sizes=options["sizes"],
            principals=options["principals"],
            queries=options["queries"],
            warmup=options["warmup"],
            seed=options["seed"],
            limit=options["limit"],
            reuse=options["reuse"],
        )
        corpus = Corpus(chosen["seed"])
        principals = bench_principals(chosen["principals"])
        if not chosen["reuse"]:
            bench_beliefs_delete(connection, principals, progress=self.progress)
        vocabulary = corpus.vocabulary(len(principals))
        timed = corpus.queries(chosen["queries"], len(principals), stream="timed")
        warmup = corpus.queries(chosen["warmup"], len(principals), stream="warmup")
        version, leakproof = self.server_version(connection), self.leakproof(connection)
        server: Server = {"version": version, "shared_buffers": self.shared_buffers(connection)}

        sizes = chosen["sizes"]
        if chosen["reuse"]:
            sizes = sizes_left(principals, sizes, progress=self.progress)
        # The search by meaning is timed with the embedder recall uses (none: embeddings off).
        embedder = local_embedder()
        pool = vector_pool(embedder, corpus) if embedder is not None else None
        results = [
            size_measure(
                connection,
                corpus,
                principals,
                size,
                warmup=warmup,
                timed=timed,
                limit=chosen["limit"],
                progress=self.progress,
                embedder=embedder,
                pool=pool,
            )
            for size in sizes
        ]

        self._report(server, leakproof, chosen, vocabulary, timed, results)
        if options["json_out"]:
            record_write(options["json_out"], recall_record(server, leakproof, chosen, results))

    def _report(
        self,
        server: Server,
        leakproof: bool,
        options: RecallOptions,
        vocabulary: Sequence[tuple[str, int]],
        timed: Sequence[Query],
        results: Sequence[SizeResult],
    ) -> None:
        write = self.stdout.write
        words = [len(query.split()) for _, query in timed]
        write(
            f"PostgreSQL {server['version']}; shared_buffers {server['shared_buffers']}; "
            f"{os.cpu_count()} CPUs; "
            f"ts_match_vq LEAKPROOF {'yes' if leakproof else 'no'}; "
            f"recall_candidate_cap {settings.REVERIE_LIMITS['recall_candidate_cap']}; "
            f"principals {options['principals']}; limit {options['limit']}; seed {options['seed']}"
        )
        write(
            f"queries {len(timed)} timed + {options['warmup']} warm-up per method; "
            f"{min(words)}-{max(words)} words (mean {statistics.fmean(words):.2f}) "
            f"from a vocabulary of {len(vocabulary):,} content words"
        )
        for size, (total, live, mib), *_ in results:
            write(
                f"rows at {size:,}/principal: {total:,} beliefs, {live:,} active or provisional; "
                f"memory_belief with its indexes {mib:,.0f} MiB"
            )
        write("")
        header = (
            f"{'beliefs/principal':>17}  {'method':<10}{'p50 ms':>9}{'p95 ms':>9}"
            f"{'mean ms':>9}{'items':>7}"
        )
        write(header)
        write("-" * len(header))
        for size, _, selector, icontains, ranked, _, meaning, with_meaning in results:
            methods = [("selector", selector), ("icontains", icontains), ("ranked", ranked)]
            if meaning is not None and with_meaning is not None:
                methods += [("meaning", meaning), ("+meaning", with_meaning)]
            for method, figures in methods:
                write(
                    f"{size:>17,}  {method:<10}{figures['p50']:>9.2f}{figures['p95']:>9.2f}"
                    f"{figures['mean']:>9.2f}{figures['items']:>7.2f}"
                )
            for name, baseline_figures in (("icontains", icontains), ("ranked", ranked)):
                write(
                    f"{size:>17,}  {'ratio':<10}"
                    f"{baseline_figures['p50'] / selector['p50']:>8.1f}x"
                    f"{baseline_figures['p95'] / selector['p95']:>8.1f}x"
                    f"   ({name} / selector)"
                )
        write("")
        for result in results:
            write(
                f"{result.size:>17,}  precision@{options['limit']} of the selector against an "
                f"uncapped ranking: {result.precision:.3f}"
            )
        write("")
        if results[-1].meaning is not None:
            write(
                "selector: recall by words (embeddings off); meaning: the search by meaning "
                "alone, queries embedded beforehand; +meaning: recall with embeddings on, each "
                "query embedded anew (vectors: copies of real embeddings, benchmarks/vectors.py)"
            )
        size, _, selector, *_ = results[-1]
        verdict = "PASS" if selector["p95"] <= TARGET_P95_MS else "FAIL"
        write(
            f"target selector p95 <= {TARGET_P95_MS:.0f} ms at {size:,} beliefs/principal: "
            f"{verdict} ({selector['p95']:.2f} ms)"
        )
