"""The formation benchmark: formation against ingest, and ingest against a bare insert.

Sessions of user messages go in through the event-append service (one transaction per
message, as the API appends them) and, for the same messages, as bare ORM inserts; then
formation sweeps consolidate them. ``manage.py benchmark_formation`` runs it; see
docs/benchmarks.md.
"""

import multiprocessing
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.utils import timezone

from accounts.models import User
from benchmarks.conversations import messages
from benchmarks.records import Record, RssSampler, peak_rss_mib, target
from common.principal import principal_context
from formation.candidates import MemoryCandidateExtractor
from formation.selectors import formation_due
from formation.services import (
    formation_consolidate,
    formation_extractor,
    formation_sweep,
)
from memory.embeddings import embedders
from memory.enums import MESSAGE_AUTHOR_KIND, EventType
from memory.models import Belief, Event, Session
from memory.services.account import account_purge
from memory.services.sessions import event_append, session_close, session_create
from memory.services.vectors import vectors_sweep

USERNAME_PREFIX = "formation-bench-"
TARGET_MESSAGES_PER_SECOND = 1000
TARGET_RATIO = 1.0
# The ingest path's own cost: the service's checks, the session lock and the gapless
# sequence against the one INSERT they guard.
TARGET_APPEND_RATIO = 2.0
BARE_PREFIX = "formation-bench-bare-"


def workers_text(count: int) -> str:
    """How many processes consolidated, as the figures name them: "one worker", "2 workers"."""
    return "one worker" if count == 1 else f"{count} workers"


class FormationOptions(TypedDict):
    """A run's sizes, as ``manage.py benchmark_formation`` takes them."""

    sessions: int
    messages: int
    principals: int
    seed: int
    workers: int
    round: int


class Measured(TypedDict):
    """What a run timed and formed."""

    messages: int
    ingest_seconds: float
    bare_seconds: float
    formation_seconds: float
    formed: int
    # The formed memories the vector sweep then embedded in one process, and how long it took
    # (0 and 0.0 with embeddings off).
    embedded: int
    embedding_seconds: float


def formation_record(
    options: FormationOptions,
    measured: Measured,
    outcomes: Mapping[str, int],
    rss: RssSampler,
    policy: str,
) -> Record:
    """The run as a ``--json-out`` record: formation against ingest, and ingest against a
    bare insert of the same rows, all in the same run.

    ``measured`` holds ``messages``, ``ingest_seconds`` (event_append), ``bare_seconds``
    (the same messages as bare ORM inserts), ``formation_seconds`` and ``formed``.
    """
    total = measured["messages"]
    formation_rate = total / measured["formation_seconds"]
    ingest_rate = total / measured["ingest_seconds"]
    ratio = measured["formation_seconds"] / measured["ingest_seconds"]
    append_ratio = measured["ingest_seconds"] / measured["bare_seconds"]
    return {
        "benchmark": "formation",
        "figures": [
            {
                "name": f"formation throughput, {workers_text(options['workers'])}",
                "unit": "msg/s",
                "value": formation_rate,
                "baseline": {"name": "ingest", "unit": "msg/s", "value": ingest_rate},
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
            },
            {
                "name": "ingest, event_append",
                "unit": "msg/s",
                "value": ingest_rate,
                "baseline": {
                    "name": "bare insert",
                    "unit": "msg/s",
                    "value": total / measured["bare_seconds"],
                },
                "ratio": {
                    "name": "event_append cost / bare Event.objects.create cost",
                    "value": append_ratio,
                    "target": target(
                        f"cost <= {TARGET_APPEND_RATIO:g}x", "<=", TARGET_APPEND_RATIO, append_ratio
                    ),
                },
                "target": None,
            },
        ],
        "peak_memory": {"mib": peak_rss_mib(), "of": "benchmark_formation process (ru_maxrss)"},
        "details": {
            "options": dict(options),
            "policy": policy,
            **measured,
            "memories_formed": measured["formed"],
            "embedding": _embedding_details(measured),
            "consolidations": outcomes,
            "sweep_rss_mib": {"start": rss.start / 2**20, "peak": rss.peak / 2**20},
        },
    }


def _embedding_details(measured: Measured) -> dict[str, float] | None:
    """Memories per second formed and embedded, and how long a minute of formation at that
    rate takes to embed: the lag of recall by meaning behind formation under sustained load."""
    if not measured["embedding_seconds"]:
        return None
    formed_rate = measured["formed"] / measured["formation_seconds"]
    embedded_rate = measured["embedded"] / measured["embedding_seconds"]
    return {
        "memories_formed_per_second": formed_rate,
        "memories_embedded_per_second": embedded_rate,
        "seconds_to_embed_a_minute_of_formation": 60 * formed_rate / embedded_rate,
    }


@dataclass(frozen=True)
class FormationRun:
    """What one run measured: ``measured`` as ``formation_record`` reads it, the number of
    consolidations by outcome, the sweeps' resident memory and the extractor's policy."""

    measured: Measured
    outcomes: dict[str, int]
    rss: RssSampler
    policy: str


def formation_measure(
    options: FormationOptions, *, progress: Callable[[str], object]
) -> FormationRun:
    """Seed ``options["sessions"]`` sessions of ``options["messages"]`` user messages over
    ``options["principals"]`` fresh principals and consolidate them, ``options["round"]``
    sessions a round with ``options["workers"]`` processes. ``progress`` takes what a
    reader watching the run should see."""
    sessions_count, per_session = options["sessions"], options["messages"]
    progress("deleting earlier benchmark principals")
    principals = _principals_fresh(USERNAME_PREFIX, options["principals"])
    bare_principals = _principals_fresh(BARE_PREFIX, options["principals"])
    total = sessions_count * per_session

    # Rounds of --round sessions each: ingest, then formation of what was
    # ingested, so that a slow minute of the shared machine touches both
    # figures rather than one of them.
    progress(
        f"appending {total:,} messages through event_append and as bare inserts, and "
        f"consolidating them with {options['workers']} worker(s), "
        f"{options['round']} sessions a round"
    )
    timings = {"ingest": 0.0, "bare": 0.0, "formation": 0.0}
    audits: list[_Outcome] = []
    rss: RssSampler | None = None
    extractor = formation_extractor()
    for first in range(0, sessions_count, options["round"]):
        indexes = range(first, min(first + options["round"], sessions_count))
        sessions = _ingest(options, principals, bare_principals, indexes, timings)
        started = time.perf_counter()
        with RssSampler() as sampled:
            audits += _form(len(sessions), options["workers"], extractor)
        timings["formation"] += time.perf_counter() - started
        rss = sampled if rss is None else rss.joined(sampled)
    # --sessions is at least 1: there was a round, and so a sample.
    assert rss is not None
    # The bare rows are not a conversation formation should see.
    for bare_principal in bare_principals:
        account_purge(principal=bare_principal)

    formed = 0
    for principal in principals:
        with principal_context(principal):
            formed += Belief.objects.filter(owner=principal).count()
            leftover = Session.objects.filter(owner=principal, watermark__isnull=True).count()
            if leftover:
                progress(f"WARNING: {leftover} sessions of {principal} not consolidated")
    outcomes: dict[str, int] = {}
    for audit in audits:
        outcomes[audit.outcome] = outcomes.get(audit.outcome, 0) + 1
    embedded, embedding_seconds = _embed(progress)
    measured: Measured = {
        "messages": total,
        "ingest_seconds": timings["ingest"],
        "bare_seconds": timings["bare"],
        "formation_seconds": timings["formation"],
        "formed": formed,
        "embedded": embedded,
        "embedding_seconds": embedding_seconds,
    }
    return FormationRun(measured, outcomes, rss, extractor.policy_version)


def _embed(progress: Callable[[str], object]) -> tuple[int, float]:
    """Run the vector sweep, as the maintenance schedule does, until every memory formed has
    its vector; return how many it embedded and how long it took (none with embeddings off)."""
    if not embedders():
        return 0, 0.0
    progress("embedding the memories formed, as the maintenance sweep does")
    embedded = 0
    started = time.perf_counter()
    while stored := vectors_sweep(principals=1000, deadline_seconds=3600):
        embedded += stored
    return embedded, time.perf_counter() - started


def _principals_fresh(prefix: str, count: int) -> list[User]:
    """``count`` new principals named ``<prefix><n>``, once earlier ones are purged."""
    User = get_user_model()
    for earlier in User.objects.filter(username__startswith=prefix):
        account_purge(principal=earlier)
    return [
        User.objects.create_user(username=f"{prefix}{index}", password=None)
        for index in range(count)
    ]


def _ingest(
    options: FormationOptions,
    principals: Sequence[User],
    bare_principals: Sequence[User],
    indexes: Iterable[int],
    timings: dict[str, float],
) -> list[tuple[User, Session]]:
    """Append the sessions ``indexes`` through ``event_append`` (one transaction per
    message, as the API does) and, session by session, as bare inserts; close them."""
    sessions: list[tuple[User, Session]] = []
    for index in indexes:
        texts = list(messages(options["seed"], index, options["messages"]))
        principal = principals[index % len(principals)]
        started = time.perf_counter()
        session = session_create(principal=principal)
        for text in texts:
            event_append(
                principal=principal,
                session_id=session.public_id,
                event_type=EventType.USER_MESSAGE,
                parts=[{"type": "text", "text": text}],
            )
        timings["ingest"] += time.perf_counter() - started
        sessions.append((principal, session))
        bare_principal = bare_principals[index % len(bare_principals)]
        started = time.perf_counter()
        bare_session = session_create(principal=bare_principal)
        for sequence, text in enumerate(texts, 1):
            with principal_context(bare_principal), transaction.atomic():
                Event.objects.create(
                    owner=bare_principal,
                    session=bare_session,
                    sequence=sequence,
                    event_type=EventType.USER_MESSAGE,
                    author_kind=MESSAGE_AUTHOR_KIND[EventType.USER_MESSAGE],
                    parts=[{"type": "text", "text": text}],
                    text=text,
                    occurred_at=timezone.now(),
                )
        timings["bare"] += time.perf_counter() - started
    for principal, session in sessions:
        # Close: an immediate boundary, so every session is due now.
        session_close(principal=principal, session_id=session.public_id)
    return sessions


@dataclass(frozen=True)
class _Outcome:
    """What a worker process hands back of an audit: its outcome, nothing else."""

    outcome: str


def _form(due: int, workers: int, extractor: MemoryCandidateExtractor) -> list[_Outcome]:
    """Consolidate the ``due`` sessions: one sweep, as one worker would run it, or
    ``workers`` processes sharing them as that many q2 workers would."""
    if workers == 1:
        return [
            _Outcome(audit.outcome) for audit in formation_sweep(batch=due, extractor=extractor)
        ]
    return _parallel_formation(due, workers)


def _consolidate_share(share: Sequence[tuple[int, str]]) -> list[_Outcome]:
    """In a worker process: consolidate these (owner id, session id) pairs, in order."""
    owners = get_user_model().objects.in_bulk({owner_id for owner_id, _ in share})
    extractor = formation_extractor()
    outcomes: list[_Outcome] = []
    for owner_id, session_id in share:
        audit = formation_consolidate(
            principal=owners[owner_id], session_id=session_id, extractor=extractor
        )
        if audit is not None:
            outcomes.append(_Outcome(audit.outcome))
    connections.close_all()
    return outcomes


def _parallel_formation(batch: int, workers: int) -> list[_Outcome]:
    """The due sessions, dealt round-robin to ``workers`` forked processes."""
    due = formation_due(batch=batch)
    shares = [
        [(d.owner_id, d.session_public_id) for d in due[index::workers]] for index in range(workers)
    ]
    # A forked child must open its own connection, never share the parent's.
    connections.close_all()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        shared = pool.map(_consolidate_share, shares)
    return [outcome for outcomes in shared for outcome in outcomes]
