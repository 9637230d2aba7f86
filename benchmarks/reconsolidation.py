"""The reconsolidation benchmark: a full pass over one principal's bank, at two sizes.

Each bank is seeded as formation leaves one, with restatements of earlier beliefs for
merges to find; a full pass is timed with its peak resident memory. ``manage.py
benchmark_reconsolidation`` runs it; see docs/benchmarks.md.
"""

import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from accounts.models import User
from benchmarks.corpus import BeliefRow, Corpus
from benchmarks.records import Record, RssSampler, target
from common.principal import principal_context
from memory.enums import SCOPE_PRINCIPAL, AuthorKind, EventType
from memory.models import Belief, BeliefSource, Event, Session
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


class PassResult(TypedDict):
    """Full passes over one bank: their time, count, outcomes, what they left active, and
    the peak resident memory while they ran."""

    size: int
    seconds: float
    passes: int
    outcomes: dict[str, int]
    merged: int
    summaries: int
    hypotheses: int
    peak_mib: float


def reconsolidation_record(results: Sequence[PassResult], seed: int) -> Record:
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


def restate(statement: str, rng: random.Random) -> str:
    """The same claim as a person might type it again."""
    words = statement.rstrip(".").split()
    choice = rng.randrange(3)
    if choice == 0:
        return " ".join(words).lower()
    if choice == 1:
        return " ".join(w for w in words if w.lower() not in {"a", "an", "the"}) + "!"
    return " ".join(words) + " ."


def seed_rows(corpus: Corpus, size: int, seed: int) -> Iterator[BeliefRow]:
    """Beliefs of one synthetic bank, with restatements of earlier live ones."""
    rng = random.Random(f"reverie-reconsolidation-bench:{seed}:{size}")
    earlier: list[BeliefRow] = []
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


def reconsolidation_measure(
    size: int, *, seed: int, slice_size: int | None, progress: Callable[[str], object]
) -> PassResult:
    """Seed a fresh principal with a bank of ``size`` beliefs and time full passes over it
    (slices of ``slice_size``, or the pass's own): a row of ``reconsolidation_record``'s
    ``results``."""
    principal = _principal_fresh(size, progress)
    progress(f"seeding {size:,} beliefs")
    _bank_seed(principal, size, seed)
    progress(f"full pass over {size:,} beliefs")
    passes = 0
    outcomes: dict[str, int] = {}
    with RssSampler() as rss:
        started = time.perf_counter()
        while True:
            report = reconsolidation_pass(principal=principal, slice_size=slice_size)
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


def _principal_fresh(size: int, progress: Callable[[str], object]) -> User:
    """A new principal for a bank of ``size``; an earlier one is purged with its data."""
    User = get_user_model()
    username = f"{USERNAME_PREFIX}{size}"
    for earlier in User.objects.filter(username=username):
        progress(f"purging {username}")
        account_purge(principal=earlier)
    return User.objects.create_user(username=username, password=None)


def _bank_seed(principal: User, size: int, seed: int) -> None:
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
