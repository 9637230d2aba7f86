"""Benchmark a full reconsolidation pass at two bank sizes on PostgreSQL; print time and memory."""

import itertools
import os
import random
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.corpus import Corpus
from benchmarks.records import RssSampler, record_write, target
from memory.enums import SCOPE_PRINCIPAL, AuthorKind, EventType
from memory.models import Belief, BeliefSource, Event, Session
from memory.principal import principal_context
from memory.screening import classify_sensitivity
from memory.services.account import account_purge
from memory.text import claim_fingerprint, claim_key
from reconsolidation.models import Cursor, DerivedMemory
from reconsolidation.services.passes import reconsolidation_pass

USERNAME_PREFIX = "reconsolidation-bench-"
BATCH = 5000
# Messages per seeded session: each belief comes from one of them.
SESSION_MESSAGES = 10
# Share of beliefs that restate an earlier one in other words (case, articles,
# punctuation): what a merge should find.
RESTATED = 0.1
TARGET_RATIO = 12.0
TARGET_SECONDS = 60.0


def reconsolidation_record(results, seed):
    """The run as a ``--json-out`` record: the larger bank's full pass against the smaller's."""
    small, large = results
    ratio = large["seconds"] / small["seconds"]
    limit_applies = large["size"] >= 100_000
    return {
        "benchmark": "reconsolidation",
        "figures": [
            {
                "name": f"full pass at {large['size']:,} beliefs",
                "unit": "s",
                "value": large["seconds"],
                "baseline": {
                    "name": f"full pass at {small['size']:,}",
                    "unit": "s",
                    "value": small["seconds"],
                },
                "ratio": {
                    "name": "time ratio",
                    "value": ratio,
                    "target": target(f"<= {TARGET_RATIO:g}x", "<=", TARGET_RATIO, ratio),
                },
                "target": target(
                    f"< {TARGET_SECONDS:g} s at 100,000",
                    "<",
                    TARGET_SECONDS,
                    large["seconds"],
                    applicable=limit_applies,
                    why="" if limit_applies else "the limit is stated for 100,000 beliefs",
                ),
            }
        ],
        "peak_memory": {
            "mib": max(row["peak_mib"] for row in results),
            "of": "benchmark_reconsolidation process while passing (sampled)",
        },
        "details": {"seed": seed, "results": results},
    }


def restate(statement, rng):
    """The same claim as a person might type it again."""
    words = statement.rstrip(".").split()
    choice = rng.randrange(3)
    if choice == 0:
        return " ".join(words).lower()
    if choice == 1:
        return " ".join(w for w in words if w.lower() not in {"a", "an", "the"}) + "!"
    return " ".join(words) + " ."


def seed_rows(corpus, size, seed):
    """Beliefs of one synthetic bank, with restatements of earlier live ones."""
    rng = random.Random(f"reverie-reconsolidation-bench:{seed}:{size}")
    earlier = []
    for row in corpus.beliefs(0, 0, size):
        if earlier and rng.random() < RESTATED:
            source = rng.choice(earlier)
            statement = restate(source["statement"], rng)
            row = {
                **source,
                "statement": statement,
                "fingerprint": claim_fingerprint(source["subject"], statement),
                "claim_key": claim_key(source["subject"], source["type"], "positive", statement),
            }
        elif row["status"] in ("active", "provisional"):
            earlier.append(row)
        yield row


class Command(BenchmarkCommand):
    help = (
        "Seed one principal with each bank size (restatements included) and time a full "
        "reconsolidation pass over it; print time, peak memory and the ratio between sizes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="10000,100000")
        parser.add_argument("--slice", type=positive_int, default=None)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--json-out",
            metavar="PATH",
            help="Also write the figures, the targets and peak memory as one JSON object.",
        )

    def run(self, connection, options):
        try:
            sizes = [int(size) for size in options["sizes"].split(",")]
        except ValueError:
            raise CommandError("--sizes takes comma-separated integers") from None
        if len(sizes) != 2 or not 0 < sizes[0] < sizes[1]:
            raise CommandError("--sizes takes two increasing sizes, e.g. 10000,100000")
        results = [self._measure(size, options) for size in sizes]
        self._report(results, options)
        if options["json_out"]:
            record_write(options["json_out"], reconsolidation_record(results, options["seed"]))

    def _principal(self, size):
        User = get_user_model()
        username = f"{USERNAME_PREFIX}{size}"
        for earlier in User.objects.filter(username=username):
            self.progress(f"purging {username}")
            account_purge(principal=earlier)
        return User.objects.create_user(username=username, password=None)

    def _seed(self, principal, size, seed):
        """The bank as formation leaves it: each belief sourced from one message, ten
        messages a session, its evidence clock the message's time (so that hypotheses,
        which need independent events and live evidence, are planned as they would be)."""
        corpus = Corpus(seed)
        rows = seed_rows(corpus, size, seed)
        start = timezone.now() - timedelta(days=1)
        offset = 0
        while batch := list(itertools.islice(rows, BATCH)):
            now = timezone.now()
            times = [start + timedelta(seconds=offset + i) for i in range(len(batch))]
            with principal_context(principal):
                sessions = Session.objects.bulk_create(
                    Session(
                        owner=principal,
                        last_activity_at=times[i],
                        closed_at=times[i],
                        last_sequence=SESSION_MESSAGES,
                    )
                    for i in range(0, len(batch), SESSION_MESSAGES)
                )
                events = Event.objects.bulk_create(
                    Event(
                        owner=principal,
                        session=sessions[i // SESSION_MESSAGES],
                        sequence=i % SESSION_MESSAGES + 1,
                        event_type=EventType.USER_MESSAGE,
                        author_kind=AuthorKind.PRINCIPAL,
                        text=row["statement"],
                        sensitivity=classify_sensitivity(row["statement"]),
                        occurred_at=times[i],
                    )
                    for i, row in enumerate(batch)
                )
                beliefs = Belief.objects.bulk_create(
                    Belief(
                        owner=principal,
                        scope=SCOPE_PRINCIPAL,
                        deleted_at=now if row["status"] == "deleted" else None,
                        evidence_at=times[i],
                        **row,
                    )
                    for i, row in enumerate(batch)
                )
                BeliefSource.objects.bulk_create(
                    BeliefSource(owner=principal, belief=belief, event=event)
                    for belief, event in zip(beliefs, events, strict=True)
                )
            offset += len(batch)
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            for table in ("memory_belief", "memory_beliefsource", "memory_event"):
                cursor.execute(f"VACUUM (ANALYZE) {table}")

    def _measure(self, size, options):
        principal = self._principal(size)
        self.progress(f"seeding {size:,} beliefs")
        self._seed(principal, size, options["seed"])
        self.progress(f"full pass over {size:,} beliefs")
        passes, outcomes = 0, {}
        with RssSampler() as rss:
            started = time.perf_counter()
            while True:
                report = reconsolidation_pass(principal=principal, slice_size=options["slice"])
                passes += 1
                for outcome, count in report.outcomes.items():
                    outcomes[outcome] = outcomes.get(outcome, 0) + count
                if report.full_scan_completed or not report.leased:
                    break
            seconds = time.perf_counter() - started
        with principal_context(principal):
            active = DerivedMemory.objects.filter(owner=principal, status="active")
            merged = active.filter(kind=DerivedMemory.Kind.MERGED).count()
            summaries = active.filter(kind=DerivedMemory.Kind.SUMMARY).count()
            hypotheses = active.filter(kind=DerivedMemory.Kind.HYPOTHESIS).count()
        Cursor.objects.filter(principal=principal).delete()
        return {
            "size": size,
            "seconds": seconds,
            "passes": passes,
            "outcomes": outcomes,
            "merged": merged,
            "summaries": summaries,
            "hypotheses": hypotheses,
            "peak_mib": rss.peak / 2**20,
        }

    def _report(self, results, options):
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
