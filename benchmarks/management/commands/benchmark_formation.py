"""Benchmark formation against ingest on PostgreSQL. See docs/benchmarks.md."""

import os
import time

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.conversations import messages
from benchmarks.records import RssSampler, peak_rss_mib, record_write, target
from memory.enums import EventType
from memory.models import Belief, Session
from memory.principal import principal_context
from memory.services.account import account_purge
from memory.services.formation import formation_extractor, formation_sweep
from memory.services.sessions import event_append, session_close, session_create

USERNAME_PREFIX = "formation-bench-"
TARGET_MESSAGES_PER_SECOND = 1000
TARGET_RATIO = 3.0


def formation_record(
    options, total, ingest_seconds, formation_seconds, formed, outcomes, rss, policy
):
    """The run as a ``--json-out`` record: formation's rate against ingest's in the same run."""
    formation_rate = total / formation_seconds
    ratio = formation_seconds / ingest_seconds
    return {
        "benchmark": "formation",
        "figures": [
            {
                "name": "formation throughput, one worker",
                "unit": "msg/s",
                "value": formation_rate,
                "baseline": {
                    "name": "ingest",
                    "unit": "msg/s",
                    "value": total / ingest_seconds,
                },
                "ratio": {
                    "name": "formation cost / ingest cost",
                    "value": ratio,
                    "target": target(f"cost <= {TARGET_RATIO:g}x", "<=", TARGET_RATIO, ratio),
                },
                "target": target(
                    f">= {TARGET_MESSAGES_PER_SECOND:,} msg/s",
                    ">=",
                    TARGET_MESSAGES_PER_SECOND,
                    formation_rate,
                ),
            }
        ],
        "peak_memory": {"mib": peak_rss_mib(), "of": "benchmark_formation process (ru_maxrss)"},
        "details": {
            "options": {
                key: options[key] for key in ("sessions", "messages", "principals", "seed")
            },
            "policy": policy,
            "messages": total,
            "ingest_seconds": ingest_seconds,
            "formation_seconds": formation_seconds,
            "memories_formed": formed,
            "consolidations": outcomes,
            "sweep_rss_mib": {"start": rss.start / 2**20, "peak": rss.peak / 2**20},
        },
    }


class Command(BenchmarkCommand):
    help = (
        "Seed sessions of user messages through the event-append service, then consolidate "
        "them with one formation sweep; print throughput, the ratio and peak memory."
    )

    def add_arguments(self, parser):
        parser.add_argument("--sessions", type=positive_int, default=1000)
        parser.add_argument("--messages", type=positive_int, default=10)
        parser.add_argument("--principals", type=positive_int, default=100)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--json-out",
            metavar="PATH",
            help="Also write the figures, the targets and peak memory as one JSON object.",
        )

    def _principals(self, count):
        User = get_user_model()
        for earlier in User.objects.filter(username__startswith=USERNAME_PREFIX):
            account_purge(principal=earlier)
        return [
            User.objects.create_user(username=f"{USERNAME_PREFIX}{index}", password=None)
            for index in range(count)
        ]

    def run(self, connection, options):
        sessions_count, per_session = options["sessions"], options["messages"]
        self.progress("deleting earlier benchmark principals")
        principals = self._principals(options["principals"])
        total = sessions_count * per_session

        # Ingest: one service call (one transaction) per message, as the API does.
        self.progress(f"appending {total:,} messages through event_append")
        sessions = []
        started = time.perf_counter()
        for index in range(sessions_count):
            principal = principals[index % len(principals)]
            session = session_create(principal=principal)
            for text in messages(options["seed"], index, per_session):
                event_append(
                    principal=principal,
                    session_id=session.public_id,
                    event_type=EventType.USER_MESSAGE,
                    parts=[{"type": "text", "text": text}],
                )
            sessions.append((principal, session))
        ingest_seconds = time.perf_counter() - started
        for principal, session in sessions:
            # Close: an immediate boundary, so every session is due now.
            session_close(principal=principal, session_id=session.public_id)

        # Formation: one sweep over every session, as one worker would run it.
        self.progress(f"consolidating {sessions_count:,} sessions in one sweep")
        extractor = formation_extractor()
        with RssSampler() as rss:
            started = time.perf_counter()
            audits = formation_sweep(batch=sessions_count, extractor=extractor)
            formation_seconds = time.perf_counter() - started

        formed = 0
        for principal in principals:
            with principal_context(principal):
                formed += Belief.objects.filter(owner=principal).count()
                leftover = Session.objects.filter(owner=principal, watermark__isnull=True).count()
                if leftover:
                    self.progress(f"WARNING: {leftover} sessions of {principal} not consolidated")
        outcomes = {}
        for audit in audits:
            outcomes[audit.outcome] = outcomes.get(audit.outcome, 0) + 1
        self._report(
            options,
            total,
            ingest_seconds,
            formation_seconds,
            formed,
            outcomes,
            rss,
            extractor.policy_version,
        )
        if options["json_out"]:
            record = formation_record(
                options,
                total,
                ingest_seconds,
                formation_seconds,
                formed,
                outcomes,
                rss,
                extractor.policy_version,
            )
            record_write(options["json_out"], record)

    def _report(
        self,
        options,
        total,
        ingest_seconds,
        formation_seconds,
        formed,
        outcomes,
        rss,
        policy,
    ):
        write = self.stdout.write
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = cursor.fetchone()[0]
        ingest_rate = total / ingest_seconds
        formation_rate = total / formation_seconds
        ratio = formation_seconds / ingest_seconds
        write(
            f"PostgreSQL {version}; {os.cpu_count()} CPUs; {options['sessions']:,} sessions x "
            f"{options['messages']} user messages over {options['principals']} principals; "
            f"seed {options['seed']}; policy {policy}"
        )
        write("")
        write(
            f"ingest (event_append, one transaction per message): {ingest_seconds:8.2f} s "
            f"{ingest_rate:10,.0f} messages/s"
        )
        write(
            f"formation (one sweep, one worker):                   {formation_seconds:8.2f} s "
            f"{formation_rate:10,.0f} messages/s"
        )
        write(f"formation cost / ingest cost: {ratio:.2f}x")
        write(
            f"memories formed: {formed:,}; consolidations: "
            + ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
        )
        write(
            f"sweep memory: peak RSS {rss.peak / 2**20:.1f} MiB "
            f"(from {rss.start / 2**20:.1f} MiB when it began; sampled every 20 ms)"
        )
        write("")
        verdict = (
            "PASS"
            if formation_rate >= TARGET_MESSAGES_PER_SECOND and ratio <= TARGET_RATIO
            else "FAIL"
        )
        write(
            f"target >= {TARGET_MESSAGES_PER_SECOND:,} messages/s and formation <= "
            f"{TARGET_RATIO:.0f}x ingest: {verdict}"
        )
