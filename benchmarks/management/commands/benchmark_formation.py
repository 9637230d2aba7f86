"""Benchmark formation against ingest on PostgreSQL (``benchmarks.formation``). See
docs/benchmarks.md."""

import os
from collections.abc import Mapping
from typing import Any

from django.core.management.base import CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.formation import (
    TARGET_APPEND_RATIO,
    TARGET_MESSAGES_PER_SECOND,
    TARGET_RATIO,
    FormationOptions,
    Measured,
    formation_measure,
    formation_record,
    workers_text,
)
from benchmarks.records import RssSampler, record_write


class Command(BenchmarkCommand):
    help = (
        "Seed sessions of user messages through the event-append service and consolidate "
        "them with formation sweeps, in alternating rounds; print throughput, the ratios and "
        "peak memory."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sessions", type=positive_int, default=1000)
        parser.add_argument("--messages", type=positive_int, default=10)
        parser.add_argument("--principals", type=positive_int, default=100)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--round",
            type=positive_int,
            default=100,
            help="Sessions ingested and then consolidated in each round (default 100).",
        )
        parser.add_argument(
            "--workers",
            type=positive_int,
            default=1,
            help="Processes that consolidate the due sessions between them (1: one sweep).",
        )
        parser.add_argument(
            "--json-out",
            metavar="PATH",
            help="Also write the figures, the targets and peak memory as one JSON object.",
        )

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        chosen = FormationOptions(
            sessions=options["sessions"],
            messages=options["messages"],
            principals=options["principals"],
            seed=options["seed"],
            workers=options["workers"],
            round=options["round"],
        )
        run = formation_measure(chosen, progress=self.progress)
        self._report(chosen, run.measured, run.outcomes, run.rss, run.policy)
        if options["json_out"]:
            record = formation_record(chosen, run.measured, run.outcomes, run.rss, run.policy)
            record_write(options["json_out"], record)

    def _report(
        self,
        options: FormationOptions,
        measured: Measured,
        outcomes: Mapping[str, int],
        rss: RssSampler,
        policy: str,
    ) -> None:
        write = self.stdout.write
        version = self.server_version(connections[DEFAULT_DB_ALIAS])
        total = measured["messages"]
        ingest, bare = measured["ingest_seconds"], measured["bare_seconds"]
        formation = measured["formation_seconds"]
        ratio, append_ratio = formation / ingest, ingest / bare
        write(
            f"PostgreSQL {version}; {os.cpu_count()} CPUs; {options['sessions']:,} sessions x "
            f"{options['messages']} user messages over {options['principals']} principals; "
            f"seed {options['seed']}; policy {policy}"
        )
        write("")
        write(
            f"bare insert (Event.objects.create, one transaction each): {bare:8.2f} s "
            f"{total / bare:10,.0f} messages/s"
        )
        write(
            f"ingest (event_append, one transaction per message):       {ingest:8.2f} s "
            f"{total / ingest:10,.0f} messages/s"
        )
        write(
            f"{'formation (' + workers_text(options['workers']) + ')':<58}{formation:8.2f} s "
            f"{total / formation:10,.0f} messages/s"
        )
        write(f"event_append cost / bare insert cost: {append_ratio:.2f}x")
        write(f"formation cost / ingest cost: {ratio:.2f}x")
        write(
            f"memories formed: {measured['formed']:,}; consolidations: "
            + ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
        )
        write(
            f"sweep memory: peak RSS {rss.peak / 2**20:.1f} MiB "
            f"(from {rss.start / 2**20:.1f} MiB when it began; sampled every 20 ms)"
        )
        if measured["embedding_seconds"]:
            formed_rate = measured["formed"] / formation
            embedded_rate = measured["embedded"] / measured["embedding_seconds"]
            write(
                f"vectors of the memories formed, the maintenance sweep in one process: "
                f"{measured['embedded']:,} in {measured['embedding_seconds']:.2f} s, "
                f"{embedded_rate:,.1f} memories/s against formation's {formed_rate:,.1f}: "
                f"a minute of formation at this rate is embedded in "
                f"{60 * formed_rate / embedded_rate:,.0f} s, and found by its words meanwhile"
            )
        write("")
        verdict = (
            "PASS"
            if total / formation >= TARGET_MESSAGES_PER_SECOND
            and ratio <= TARGET_RATIO
            and append_ratio <= TARGET_APPEND_RATIO
            else "FAIL"
        )
        write(
            f"target >= {TARGET_MESSAGES_PER_SECOND:,} messages/s, formation <= "
            f"{TARGET_RATIO:g}x ingest and event_append <= {TARGET_APPEND_RATIO:g}x a bare "
            f"insert: {verdict}"
        )
