"""The recall benchmark: recall's selector against an unindexed ``icontains`` baseline.

Banks of synthetic beliefs (``benchmarks.corpus``) grow size by size; at each size the
selector and two unindexed searches answer the same queries, timed after untimed
warm-up ones. ``manage.py benchmark_recall`` runs it; see docs/benchmarks.md.
"""

import gc
import itertools
import operator
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from typing import NamedTuple, TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Case, Q, When
from django.test.utils import override_settings
from django.utils import timezone

from accounts.models import User
from benchmarks.corpus import Corpus, Query
from benchmarks.records import Figure, Record, peak_rss_mib, target
from benchmarks.suite import BenchmarkError
from benchmarks.vectors import vectors_seed
from common.principal import principal_context
from memory.embeddings import Embedder, Vectors
from memory.embeddings.queries import QUERIES
from memory.enums import LIVE_BELIEF_STATUSES, SCOPE_PRINCIPAL
from memory.models import Belief
from memory.search import belief_search
from memory.search.meaning import Space, nearest
from memory.selectors.recall import recall
from memory.text import query_terms

USERNAME_PREFIX = "bench-"
BATCH_SIZE = 5000
TARGET_P95_MS = 20.0
# The size the target is stated for: smaller banks are timed but not judged.
TARGET_SIZE = 100_000


class Server(TypedDict):
    """The PostgreSQL the run timed, as its text output names it."""

    version: str
    shared_buffers: str


class RecallOptions(TypedDict):
    """A run's sizes and query mix, as ``manage.py benchmark_recall`` takes them."""

    sizes: list[int]
    principals: int
    queries: int
    warmup: int
    seed: int
    limit: int
    reuse: bool


class Timing(TypedDict):
    """One method's latencies over the timed queries, in ms, and the mean items returned."""

    p50: float
    p95: float
    mean: float
    items: float


class BankCounts(NamedTuple):
    """A grown bank: its beliefs, the live ones among them, and the table's size."""

    beliefs: int
    live: int
    table_mib: float


class SizeResult(NamedTuple):
    """What one bank size measured: a row of ``recall_record``'s ``results``. ``selector``
    is recall by words alone (embeddings off); with an embedder, ``meaning`` is the search
    by meaning alone (``memory.search.meaning.nearest``, the query already embedded) and
    ``with_meaning`` the whole of recall with embeddings on, each query embedded anew."""

    size: int
    counts: BankCounts
    selector: Timing
    icontains: Timing
    ranked: Timing
    precision: float
    meaning: Timing | None = None
    with_meaning: Timing | None = None


def baseline(principal: User, terms: Iterable[str], limit: int) -> list[Belief]:
    """The unindexed search recall replaces: any term as a substring, newest first."""
    match = reduce(operator.or_, (Q(statement__icontains=term) for term in terms))
    with principal_context(principal):
        return list(
            Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
            .filter(match)
            .order_by("-updated_at")[:limit]
        )


def ranked_baseline(principal: User, terms: Iterable[str], limit: int) -> list[Belief]:
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


def recall_record(
    server: Server, leakproof: bool, options: RecallOptions, results: Sequence[SizeResult]
) -> Record:
    """The run as a ``--json-out`` record: the selector's p95 at the largest size against
    the ranked unindexed baseline, which keeps recall's ordering."""
    last = results[-1]
    size, selector, ranked = last.size, last.selector, last.ranked
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
            },
            *_meaning_figures(results),
        ],
        "peak_memory": {"mib": peak_rss_mib(), "of": "benchmark_recall process (ru_maxrss)"},
        "details": {
            "postgresql": server["version"],
            "shared_buffers": server["shared_buffers"],
            "leakproof": bool(leakproof),
            "candidate_cap": settings.REVERIE_LIMITS["recall_candidate_cap"],
            "options": dict(options),
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
                    "meaning": meaning,
                    "with_meaning": with_meaning,
                }
                for (
                    size,
                    (total, live, mib),
                    selector,
                    icontains,
                    ranked,
                    quality,
                    meaning,
                    with_meaning,
                ) in results
            ],
        },
    }


def _meaning_figures(results: Sequence[SizeResult]) -> list[Figure]:
    """The search by meaning's p95 at every size, beside recall by words at that size: a
    measurement, with no target of its own."""
    return [
        {
            "name": f"search by meaning p95 at {result.size:,}/principal",
            "unit": "ms",
            "value": result.meaning["p95"],
            "baseline": {
                "name": "recall by words p95",
                "unit": "ms",
                "value": result.selector["p95"],
            },
            "ratio": None,
            "target": None,
        }
        for result in results
        if result.meaning is not None
    ]


# -- seeding ---------------------------------------------------------------------------


def bench_principals(count: int) -> list[User]:
    """The principals ``bench-0``... ``bench-<count - 1>``, kept from an earlier run or new."""
    User = get_user_model()
    principals = []
    for index in range(count):
        username = f"{USERNAME_PREFIX}{index}"
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=None)
        principals.append(user)
    return principals


def bench_beliefs_delete(
    connection: BaseDatabaseWrapper,
    principals: Iterable[User],
    *,
    progress: Callable[[str], object],
) -> None:
    """Delete the bench principals' beliefs, so that their banks are seeded afresh."""
    progress("deleting earlier bench beliefs")
    for principal in principals:
        with principal_context(principal), connection.cursor() as cursor:
            cursor.execute("DELETE FROM memory_memoryvector WHERE owner_id = %s", [principal.pk])
            cursor.execute("DELETE FROM memory_belief WHERE owner_id = %s", [principal.pk])


def sizes_left(
    principals: Iterable[User], sizes: Sequence[int], *, progress: Callable[[str], object]
) -> list[int]:
    """The sizes a kept bank can still be timed at: a bank only grows, so a size below
    what it already holds can't be timed without seeding afresh."""
    held = 0
    for principal in principals:
        with principal_context(principal):
            held = max(held, Belief.objects.filter(owner=principal).count())
    left = [size for size in sizes if size >= held]
    if not left:
        raise BenchmarkError(
            f"The bench principals already hold up to {held:,} beliefs, more than "
            f"{sizes[-1]:,}: --reuse only grows a bank; pass --sizes from that size up, or "
            "run without --reuse to seed afresh."
        )
    for size in sizes[: len(sizes) - len(left)]:
        progress(f"skipping {size:,}/principal: the kept bank holds {held:,} already")
    return left


def _grow(
    connection: BaseDatabaseWrapper,
    corpus: Corpus,
    principals: Iterable[User],
    size: int,
    progress: Callable[[str], object],
) -> None:
    added = 0
    for index, principal in enumerate(principals):
        with principal_context(principal):
            have = Belief.objects.filter(owner=principal).count()
        if have > size:
            raise BenchmarkError(
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
        progress(f"{principal.username}: {size:,} beliefs")
    if added:
        # VACUUM as well as ANALYZE: it merges the GIN index's pending list
        # and sets the visibility map, as autovacuum would on a live system;
        # the search statistics were updated once per batch, so they hold
        # dead row versions that autovacuum would clear.
        progress(f"added {added:,} beliefs; VACUUM ANALYZE")
        with connection.cursor() as cursor:
            for table in ("memory_belief", "memory_searchterm", "memory_searchstatistics"):
                cursor.execute(f"VACUUM (ANALYZE) {table}")


def _table_mib(connection: BaseDatabaseWrapper) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size('memory_belief')")
        bytes_: int = cursor.fetchone()[0]
        return bytes_ / 2**20


def _counts(principals: Iterable[User]) -> tuple[int, int]:
    total = live = 0
    for principal in principals:
        with principal_context(principal):
            beliefs = Belief.objects.filter(owner=principal)
            total += beliefs.count()
            live += beliefs.filter(status__in=LIVE_BELIEF_STATUSES).count()
    return total, live


# -- timing ----------------------------------------------------------------------------


def size_measure(
    connection: BaseDatabaseWrapper,
    corpus: Corpus,
    principals: Sequence[User],
    size: int,
    *,
    warmup: Sequence[Query],
    timed: Sequence[Query],
    limit: int,
    progress: Callable[[str], object],
    embedder: Embedder | None = None,
    pool: Vectors | None = None,
) -> SizeResult:
    """Grow each principal's bank to ``size`` beliefs and time the selector and both
    baselines on it, and with ``embedder`` (and its ``pool``, ``benchmarks.vectors``) the
    search by meaning: a row of ``recall_record``'s ``results``."""
    started = time.perf_counter()
    _grow(connection, corpus, principals, size, progress)
    if embedder is not None and pool is not None:
        for principal in principals:
            vectors_seed(principal, embedder=embedder, pool=pool, seed=size)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE) memory_memoryvector")
    seeded = time.perf_counter() - started
    counts = BankCounts(*_counts(principals), _table_mib(connection))
    progress(f"{size:,}/principal ready in {seeded:.0f} s; timing")
    with override_settings(REVERIE_EMBEDDINGS={**settings.REVERIE_EMBEDDINGS, "mode": "off"}):
        selector = _time(
            lambda p, q: len(recall(principal=p, query=q, limit=limit).items),
            principals,
            warmup,
            timed,
        )
        quality = _quality(principals, timed, limit)
    icontains = _time(
        lambda p, q: len(baseline(p, query_terms(q), limit)),
        principals,
        warmup,
        timed,
    )
    ranked = _time(
        lambda p, q: len(ranked_baseline(p, query_terms(q), limit)),
        principals,
        warmup,
        timed,
    )
    if embedder is None:
        return SizeResult(size, counts, selector, icontains, ranked, quality)
    progress(f"{size:,}/principal: timing the search by meaning")
    meaning = _time(_nearest_run(embedder, [*warmup, *timed], limit), principals, warmup, timed)

    def with_meaning(principal: User, query: str) -> int:
        # Every query embedded anew, as distinct queries are.
        QUERIES.clear()
        return len(recall(principal=principal, query=query, limit=limit).items)

    return SizeResult(
        size,
        counts,
        selector,
        icontains,
        ranked,
        quality,
        meaning,
        _time(with_meaning, principals, warmup, timed),
    )


def _nearest_run(
    embedder: Embedder, queries: Sequence[Query], limit: int
) -> Callable[[User, str], int]:
    """A run of the search by meaning alone, over the live beliefs as recall searches them,
    with each query embedded beforehand."""
    texts = sorted({query for _, query in queries})
    vectors = dict(zip(texts, embedder.queries(texts), strict=True))
    search = belief_search(statuses=LIVE_BELIEF_STATUSES, limit=limit * 2)

    def run(principal: User, query: str) -> int:
        space = Space(embedder.key, embedder.dimensions, vectors[query], embedder.floor)
        with principal_context(principal):
            ((found,),) = nearest([search], [space], owner_id=principal.pk)
        return len(found.matches)

    return run


def _figures(seconds: Iterable[float], items: Sequence[int]) -> Timing:
    ms = sorted(s * 1000 for s in seconds)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return {
        "p50": statistics.median(ms),
        "p95": p95,
        "mean": statistics.fmean(ms),
        "items": statistics.fmean(items),
    }


def _time(
    run: Callable[[User, str], int],
    principals: Sequence[User],
    warmup: Iterable[Query],
    timed: Iterable[Query],
) -> Timing:
    for index, query in warmup:
        run(principals[index], query)
    gc.collect()
    seconds: list[float] = []
    items: list[int] = []
    for index, query in timed:
        started = time.perf_counter()
        found = run(principals[index], query)
        seconds.append(time.perf_counter() - started)
        items.append(found)
    return _figures(seconds, items)


def _quality(principals: Sequence[User], timed: Iterable[Query], limit: int) -> float:
    """Share of returned items that an uncapped ranking would also rank in its top ``limit``.

    An item counts when its score is at least the uncapped ``limit``-th best
    score, so that ties are not held against the cap.
    """
    uncapped_limits = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 10**9}
    shares: list[float] = []
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
