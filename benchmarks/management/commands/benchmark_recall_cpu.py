"""Where a recall's CPU goes, in one process: Python's share and PostgreSQL's, beside the
same run's /healthz and GET /memories/{id} (``benchmarks.recall_cpu``).

A diagnostic without a target. See docs/benchmarks.md ("API load", "Where the time goes").
"""

import os
import platform
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks.arguments import non_negative_int, positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.load_api import Fixture
from benchmarks.recall_cpu import (
    OPERATIONS,
    WORD_DRAWS,
    CpuOptions,
    OperationCpu,
    PhaseCpu,
    RecallCpu,
    fixture_read,
    recall_cpu_measure,
)
from benchmarks.recall_parts import (
    BLOCK,
    PARTS,
    PartCost,
    PartsCpu,
    VariantCpu,
    parts_argument,
    parts_measure,
)
from memory.embeddings.queries import QUERIES

# A row's CPU per request, whichever table it is of.
Figures = OperationCpu | PhaseCpu | PartCost | VariantCpu


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _total(figures: Figures) -> float | None:
    postgres = figures["postgres_ms"]
    return None if postgres is None else figures["python_ms"] + postgres


def _table(
    write: Callable[[str], None],
    labels: Sequence[tuple[str, int]],
    rows: Iterable[tuple[Sequence[object], Figures]],
) -> None:
    """A table of CPU per request: each row's labels (``labels`` gives their headings and
    widths), then its Python, PostgreSQL and total ms."""
    header = "".join(f"{name:<{width}}" for name, width in labels)
    header += f"{'Python ms':>11}{'PostgreSQL ms':>15}{'total ms':>10}"
    write(header)
    write("-" * len(header))
    for cells, figures in rows:
        write(
            "".join(f"{cell!s:<{width}}" for cell, (_, width) in zip(cells, labels, strict=True))
            + f"{figures['python_ms']:>11.3f}{_ms(figures['postgres_ms']):>15}"
            + f"{_ms(_total(figures)):>10}"
        )


def _variant(name: str) -> str:
    return f"{name} {PARTS[name].how}" if name in PARTS else name


def _ratio(value: float | None, baseline: float | None) -> str:
    if value is None or baseline is None:
        return "n/a"
    return f"{value / baseline:.1f}x" if baseline > 0 else "n/a (baseline 0)"


class Command(BenchmarkCommand):
    # It reads the load benchmark's bank through its tokens and deletes nothing; the
    # fixture names the database it was written for, and the run refuses any other.
    database_prefix = None
    help = (
        "Diagnostic, no target: drive GET /healthz, GET /api/v1/memories/{id} and POST "
        "/api/v1/recall through Django's test client in this process, with the load "
        "benchmark's tokens and query draw (the fixture of manage.py seed_load), and print "
        "each request's CPU: this process's (Python) and its PostgreSQL backend's (read "
        "from /proc when PostgreSQL runs on this machine), round by round and the medians, "
        "and recall's ratio to the two baselines. Run it with the production settings "
        "through benchmarks/run_recall_cpu.sh."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--fixture",
            default=str(settings.VAR_DIR / "load_fixture.json"),
            help="Written by manage.py seed_load (default: var/load_fixture.json).",
        )
        parser.add_argument(
            "--requests",
            type=positive_int,
            default=2000,
            help="Measured requests per operation and round (default: 2000).",
        )
        parser.add_argument(
            "--warmup",
            type=non_negative_int,
            default=200,
            help="Uncounted requests before each measured loop (default: 200).",
        )
        parser.add_argument(
            "--rounds",
            type=positive_int,
            default=3,
            help="Rounds of the three operations, every other one in reverse order (default: 3).",
        )
        parser.add_argument(
            "--words",
            choices=WORD_DRAWS,
            default="zipf",
            help="How recall's 2-4 query words are drawn from the fixture's vocabulary: as the "
            "load generator does, weighted 1/rank (zipf, the default), or uniformly.",
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--parts",
            type=parts_argument,
            default=[],
            metavar="PART,...",
            help="Then measure what each of these parts costs a recall: recall as it is and "
            "with the part left out (access-record, masking, selector) or run twice "
            "(candidates, rows), "
            "alternated round by round on the same queries (default: none).",
        )
        parser.add_argument(
            "--profile",
            type=non_negative_int,
            default=0,
            metavar="N",
            help="Then run --requests recalls under cProfile and print the top N functions "
            "by this process's CPU time with callees and by their own (default: 0, none).",
        )

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        chosen: CpuOptions = {
            "requests": options["requests"],
            "warmup": options["warmup"],
            "rounds": options["rounds"],
            "words": options["words"],
            "seed": options["seed"],
            "profile": options["profile"],
        }
        fixture = fixture_read(options["fixture"], connection.settings_dict["NAME"])
        result = recall_cpu_measure(connection, fixture, chosen, progress=self.progress)
        self._report(connection, fixture, chosen, result)
        if options["parts"]:
            parts = parts_measure(
                connection,
                fixture,
                parts=options["parts"],
                requests=options["requests"],
                warmup=options["warmup"],
                rounds=options["rounds"],
                words=options["words"],
                seed=options["seed"],
                progress=self.progress,
            )
            self._report_parts(chosen, parts)

    def _report_parts(self, options: CpuOptions, result: PartsCpu) -> None:
        write = self.stdout.write
        write("")
        write(
            f"what each part costs a recall: recall as it is and with one part changed, "
            f"{options['requests']:,} recalls each after {options['warmup']:,} uncounted, "
            f"{options['rounds']} round(s); within a round the variants take turns "
            f"{BLOCK} recalls at a time and send the same queries"
        )
        _table(
            write,
            [("round", 8), ("recall", 24)],
            (((row["round"], _variant(row["variant"])), row) for row in result["rounds"]),
        )
        write("")
        _table(
            write,
            [("part", 15), ("measured", 11)],
            (((cost["part"], cost["how"]), cost) for cost in result["costs"]),
        )
        write(
            "a part's cost per recall: the median of the rounds' differences from recall as "
            "it is (left out: as it is minus without; run twice: twice minus as it is)"
        )
        path = result["request_path"]
        if path is not None:
            postgres = path["postgres_ms"]
            write(
                f"the request path (recall with the selector left out, median of the rounds): "
                f"{path['python_ms']:.3f} ms of Python, "
                + ("PostgreSQL n/a" if postgres is None else f"{postgres:.3f} ms of PostgreSQL")
            )

    def _report(
        self,
        connection: BaseDatabaseWrapper,
        fixture: Fixture,
        options: CpuOptions,
        result: RecallCpu,
    ) -> None:
        write = self.stdout.write
        database = connection.settings_dict
        write(
            f"recall CPU in one process (a diagnostic, no target): {options['requests']:,} "
            f"requests per operation and round after {options['warmup']:,} uncounted, "
            f"{options['rounds']} round(s) alternating {', '.join(OPERATIONS)}; "
            f"recall's 2-4 words drawn {options['words']} (seed {options['seed']}); "
            "Django's test client, one request at a time, one database connection"
        )
        write(
            f"machine: {os.cpu_count()} CPUs ({platform.machine()}); Python "
            f"{platform.python_version()}; DEBUG {'on' if settings.DEBUG else 'off'}"
        )
        server = connection.display_name
        if connection.vendor == "postgresql":
            server += f" {self.server_version(connection)}"
        write(
            f"database: {server}, {database['NAME']} as {database['USER'] or '-'}"
            + (
                f"; backend pid {result['backend_pid']}"
                if result["backend_pid"]
                else f"; PostgreSQL CPU n/a: {result['postgres_unread']}"
            )
        )
        write(
            f"data: {len(fixture['principals'])} principals, each "
            f"{fixture['beliefs_per_principal']:,} beliefs (their tokens in turn); "
            f"vocabulary {len(fixture['vocabulary']):,} words"
        )
        mode = settings.REVERIE_EMBEDDINGS["mode"]
        cache = QUERIES.statistics
        asked = cache.hits + cache.misses
        write(
            f"embeddings {mode}"
            + (
                f"; query cache: {cache.hits:,} of {asked:,} queries' vectors from it "
                f"({cache.hits / asked:.1%}), the rest embedded"
                if mode != "off" and asked
                else ""
            )
        )
        write("")
        medians = result["medians"]
        _table(
            write,
            [("round", 8), ("operation", 11)],
            [
                *(((phase["round"], phase["operation"]), phase) for phase in result["phases"]),
                *((("median", op), figures) for op, figures in medians.items()),
            ],
        )
        write(
            "CPU per request: Python is this process's (the test client's share included), "
            "PostgreSQL the backend's of its connection"
        )
        write("")
        recall = medians["recall"]
        for baseline in ("healthz", "memory"):
            other = medians[baseline]
            write(
                f"recall / {baseline}: Python {_ratio(recall['python_ms'], other['python_ms'])}, "
                f"total {_ratio(_total(recall), _total(other))}"
            )
        for sort, rows in result["profile"].items():
            write("")
            by = "CPU time with callees" if sort == "cumulative" else "own CPU time"
            write(
                f"recall under cProfile, top {len(rows)} by {by}, ms per recall (this "
                "process's CPU clock; the profiler inflates every figure: read the shares)"
            )
            write(f"{'ms':>8}{'own ms':>9}{'calls':>9}  function")
            for row in rows:
                write(
                    f"{row['cumulative_ms']:>8.3f}{row['own_ms']:>9.3f}{row['calls']:>9.1f}  "
                    f"{row['function']}"
                )
