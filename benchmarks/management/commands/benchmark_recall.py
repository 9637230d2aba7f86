"""Benchmark recall against an unindexed ``icontains`` baseline on PostgreSQL.

See docs/benchmarks.md for how to run it and how to read its output.
"""

import gc
import itertools
import operator
import os
import statistics
import time
from functools import reduce

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db.models import Case, Q, When
from django.test.utils import override_settings
from django.utils import timezone

from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.corpus import Corpus
from benchmarks.records import peak_rss_mib, record_write, target
from memory.enums import LIVE_BELIEF_STATUSES, SCOPE_PRINCIPAL
from memory.models import Belief
from memory.principal import principal_context
from memory.selectors.recall import recall
from memory.text import query_terms

USERNAME_PREFIX = "bench-"
BATCH_SIZE = 5000
TARGET_P95_MS = 20.0
# The size the target is stated for: smaller banks are timed but not judged.
TARGET_SIZE = 100_000


def _sizes(value):
    sizes = sorted({positive_int(part.strip().replace("_", "")) for part in value.split(",")})
    if not sizes:
        raise CommandError("--sizes needs at least one size.")
    return sizes


def _figures(seconds, items):
    ms = sorted(s * 1000 for s in seconds)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return {
        "p50": statistics.median(ms),
        "p95": p95,
        "mean": statistics.fmean(ms),
        "items": statistics.fmean(items),
    }


def baseline(principal, terms, limit):
    """The unindexed search recall replaces: any term as a substring, newest first."""
    match = reduce(operator.or_, (Q(statement__icontains=term) for term in terms))
    with principal_context(principal):
        return list(
            Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
            .filter(match)
            .order_by("-updated_at")[:limit]
        )


def ranked_baseline(principal, terms, limit):
    """The same substring match, ranked like recall: most terms matched first, then newest.

    Unlike ``baseline`` it cannot stop at the first matches, so it shows what an
    unindexed search costs when it keeps recall's ordering contract.
    """
    matched = reduce(
        operator.add,
        (Case(When(statement__icontains=term, then=1), default=0) for term in terms),
    )
    with principal_context(principal):
        return list(
            Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
            .annotate(matched=matched)
            .filter(matched__gt=0)
            .order_by("-matched", "-updated_at")[:limit]
        )


def recall_record(server, leakproof, options, results):
    """The run as a ``--json-out`` record: the selector's p95 at the largest size against
    the ranked unindexed baseline, which keeps recall's ordering."""
    size, _, selector, _, ranked, _ = results[-1]
    applicable = size >= TARGET_SIZE
    return {
        "benchmark": "recall",
        "figures": [
            {
                "name": f"selector p95 at {size:,}/principal",
                "unit": "ms",
                "value": selector["p95"],
                "baseline": {"name": "unindexed ranked", "unit": "ms", "value": ranked["p95"]},
                "ratio": {
                    "name": "unindexed ranked p95 / selector p95",
                    "value": ranked["p95"] / selector["p95"],
                },
                "target": target(
                    f"<= {TARGET_P95_MS:g} ms at {TARGET_SIZE:,}/principal",
                    "<=",
                    TARGET_P95_MS,
                    selector["p95"],
                    applicable=applicable,
                    why="" if applicable else f"only judged at {TARGET_SIZE:,} beliefs/principal",
                ),
            }
        ],
        "peak_memory": {"mib": peak_rss_mib(), "of": "benchmark_recall process (ru_maxrss)"},
        "details": {
            "postgresql": server["version"],
            "shared_buffers": server["shared_buffers"],
            "leakproof": bool(leakproof),
            "candidate_cap": settings.REVERIE_LIMITS["recall_candidate_cap"],
            "options": {
                key: options[key]
                for key in ("sizes", "principals", "queries", "warmup", "seed", "limit", "reuse")
            },
            "sizes": [
                {
                    "beliefs_per_principal": size,
                    "beliefs": total,
                    "live": live,
                    "table_mib": round(mib, 1),
                    # p50, p95 and mean in ms; items is the mean number returned.
                    "selector": selector,
                    "icontains": icontains,
                    "ranked": ranked,
                    "precision_at_limit": quality,
                }
                for size, (total, live, mib), selector, icontains, ranked, quality in results
            ],
        },
    }


class Command(BenchmarkCommand):
    help = (
        "Seed a reverie_bench* PostgreSQL database with synthetic beliefs and print recall "
        "latency (p50/p95) through the selector and an unindexed icontains baseline."
    )

    def add_arguments(self, parser):
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

    def run(self, connection, options):
        corpus = Corpus(options["seed"])
        principals = self._principals(options["principals"])
        if not options["reuse"]:
            self._delete(connection, principals)
        vocabulary = corpus.vocabulary(len(principals))
        timed = corpus.queries(options["queries"], len(principals), stream="timed")
        warmup = corpus.queries(options["warmup"], len(principals), stream="warmup")
        version, leakproof = self.server_version(connection), self.leakproof(connection)
        server = {"version": version, "shared_buffers": self.shared_buffers(connection)}

        sizes = options["sizes"]
        if options["reuse"]:
            sizes = self._sizes_left(principals, sizes)
        results = []
        for size in sizes:
            started = time.perf_counter()
            self._grow(connection, corpus, principals, size)
            seeded = time.perf_counter() - started
            counts = (*self._counts(principals), self._table_mib(connection))
            self.progress(f"{size:,}/principal ready in {seeded:.0f} s; timing")
            selector = self._time(
                lambda p, q: len(recall(principal=p, query=q, limit=options["limit"]).items),
                principals,
                warmup,
                timed,
            )
            quality = self._quality(principals, timed, options["limit"])
            icontains = self._time(
                lambda p, q: len(baseline(p, query_terms(q), options["limit"])),
                principals,
                warmup,
                timed,
            )
            ranked = self._time(
                lambda p, q: len(ranked_baseline(p, query_terms(q), options["limit"])),
                principals,
                warmup,
                timed,
            )
            results.append((size, counts, selector, icontains, ranked, quality))

        self._report(server, leakproof, options, vocabulary, timed, results)
        if options["json_out"]:
            record_write(options["json_out"], recall_record(server, leakproof, options, results))

    # -- seeding ---------------------------------------------------------------

    def _principals(self, count):
        User = get_user_model()
        principals = []
        for index in range(count):
            username = f"{USERNAME_PREFIX}{index}"
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username=username, password=None)
            principals.append(user)
        return principals

    def _delete(self, connection, principals):
        self.progress("deleting earlier bench beliefs")
        for principal in principals:
            with principal_context(principal), connection.cursor() as cursor:
                cursor.execute("DELETE FROM memory_belief WHERE owner_id = %s", [principal.pk])

    def _sizes_left(self, principals, sizes):
        """The sizes a kept bank can still be timed at: a bank only grows, so a size below
        what it already holds can't be timed without seeding afresh."""
        held = 0
        for principal in principals:
            with principal_context(principal):
                held = max(held, Belief.objects.filter(owner=principal).count())
        left = [size for size in sizes if size >= held]
        if not left:
            raise CommandError(
                f"The bench principals already hold up to {held:,} beliefs, more than "
                f"{sizes[-1]:,}: --reuse only grows a bank; pass --sizes from that size up, or "
                "run without --reuse to seed afresh."
            )
        for size in sizes[: len(sizes) - len(left)]:
            self.progress(f"skipping {size:,}/principal: the kept bank holds {held:,} already")
        return left

    def _grow(self, connection, corpus, principals, size):
        added = 0
        for index, principal in enumerate(principals):
            with principal_context(principal):
                have = Belief.objects.filter(owner=principal).count()
            if have > size:
                raise CommandError(
                    f"{principal.username} already has {have:,} beliefs, more than {size:,}: "
                    "--reuse only grows a bank; pass --sizes from that size up, or run without "
                    "--reuse to seed afresh."
                )
            rows = corpus.beliefs(index, have, size)
            while batch := list(itertools.islice(rows, BATCH_SIZE)):
                now = timezone.now()
                beliefs = [
                    Belief(
                        owner=principal,
                        scope=SCOPE_PRINCIPAL,
                        deleted_at=now if row["status"] == "deleted" else None,
                        **row,
                    )
                    for row in batch
                ]
                with principal_context(principal):
                    Belief.objects.bulk_create(beliefs, batch_size=BATCH_SIZE)
                added += len(batch)
            self.progress(f"{principal.username}: {size:,} beliefs")
        if added:
            # VACUUM as well as ANALYZE: it merges the GIN index's pending list
            # and sets the visibility map, as autovacuum would on a live system;
            # the search statistics were updated once per batch, so they hold
            # dead row versions that autovacuum would clear.
            self.progress(f"added {added:,} beliefs; VACUUM ANALYZE")
            with connection.cursor() as cursor:
                for table in ("memory_belief", "memory_searchterm", "memory_searchstatistics"):
                    cursor.execute(f"VACUUM (ANALYZE) {table}")

    def _table_mib(self, connection):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_total_relation_size('memory_belief')")
            return cursor.fetchone()[0] / 2**20

    def _counts(self, principals):
        total = live = 0
        for principal in principals:
            with principal_context(principal):
                beliefs = Belief.objects.filter(owner=principal)
                total += beliefs.count()
                live += beliefs.filter(status__in=LIVE_BELIEF_STATUSES).count()
        return total, live

    # -- timing ----------------------------------------------------------------

    def _time(self, run, principals, warmup, timed):
        for index, query in warmup:
            run(principals[index], query)
        gc.collect()
        seconds, items = [], []
        for index, query in timed:
            started = time.perf_counter()
            found = run(principals[index], query)
            seconds.append(time.perf_counter() - started)
            items.append(found)
        return _figures(seconds, items)

    def _quality(self, principals, timed, limit):
        """Share of returned items that an uncapped ranking would also rank in its top ``limit``.

        An item counts when its score is at least the uncapped ``limit``-th best
        score, so that ties are not held against the cap.
        """
        uncapped_limits = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 10**9}
        shares = []
        for index, query in timed:
            principal = principals[index]
            capped = recall(principal=principal, query=query, limit=limit).items
            with override_settings(REVERIE_LIMITS=uncapped_limits):
                uncapped = recall(principal=principal, query=query, limit=limit).items
            if not uncapped:
                continue
            floor = uncapped[-1].score
            shares.append(sum(item.score >= floor for item in capped) / len(uncapped))
        return statistics.fmean(shares) if shares else 1.0

    # -- output ----------------------------------------------------------------

    def _report(self, server, leakproof, options, vocabulary, timed, results):
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
        for size, _, selector, icontains, ranked, _ in results:
            methods = (("selector", selector), ("icontains", icontains), ("ranked", ranked))
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
        for size, *_, quality in results:
            write(
                f"{size:>17,}  precision@{options['limit']} of the selector against an uncapped "
                f"ranking: {quality:.3f}"
            )
        write("")
        size, _, selector, *_ = results[-1]
        verdict = "PASS" if selector["p95"] <= TARGET_P95_MS else "FAIL"
        write(
            f"target selector p95 <= {TARGET_P95_MS:.0f} ms at {size:,} beliefs/principal: "
            f"{verdict} ({selector['p95']:.2f} ms)"
        )
