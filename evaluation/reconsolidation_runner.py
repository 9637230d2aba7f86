"""The reconsolidation evaluation: each labelled bank loaded into a fresh principal, passes run
to completion, and what was derived and recalled recorded for the scorer.

The system side never reads the labels: it loads a case's beliefs (with a
message in each session they cite), runs the product's passes, deletes the
beliefs the case deletes afterwards (through the owner's erasure service), and
records every derived memory in the case's keys with the recall rankings of
the case's queries.

Three arms, run in this order: ``control`` (the originals alone: no pass at
all), frozen and written to ``control.json`` before anything else runs;
``reconsolidation`` (the deterministic passes); and
``reconsolidation_provider`` (the passes plus model-assisted reviews against
the configured provider). The first two run each case in a transaction that
is rolled back. The provider arm cannot (no provider call is made inside a
transaction), so its throwaway principal is committed and purged after the
case; its calls are charged to the global cap, and every call's outcome and
charge, uncertain ones included, is kept in the observations.
"""

import hashlib
import json
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.dateparse import parse_datetime

from accounts.models import User
from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import BeliefStatus, EventType
from memory.models import Belief, Session
from memory.selectors.recall import recall
from memory.services.account import account_purge
from memory.services.beliefs import belief_delete, belief_import
from memory.services.sessions import event_append, session_create
from reconsolidation.assisted.execution import assisted_review, topic_review
from reconsolidation.models import DerivedMemory, Lineage, ProviderCall, SummaryClaim
from reconsolidation.selectors.recall import derived_recall_evaluating
from reconsolidation.services.passes import lease_acquire, lease_release

from .arms import database_description, reconsolidate_bank
from .bindings import provider_binding
from .provenance import POLICY_ENTRIES, code_digest, policy_versions
from .reconsolidation_scoring import reconsolidation_metrics

ARM = "reconsolidation"
CONTROL = "control"
PROVIDER = "reconsolidation_provider"
RECONSOLIDATION_ARMS = (CONTROL, ARM, PROVIDER)
# Model-assisted reviews of one bank, at most: each applies what it verified, and
# a review that applies nothing ends them.
REVIEWS_PER_BANK = 3
REVIEW_SECONDS = 120
DEFAULT_FIXTURES = Path(__file__).parent / "fixtures" / "reconsolidation_labelled.jsonl"
# Sessions of a case happen a day apart, so that their evidence clocks differ,
# starting this many days before the run: recent enough that no evidence-based
# lifetime (a hypothesis's) has run out, as in a bank that is in use.
FIRST_SESSION_DAYS_AGO = 7
CONFIDENCE = {BeliefStatus.ACTIVE: 0.95, BeliefStatus.PROVISIONAL: 0.6}


class FixtureError(ValueError):
    pass


def read_fixtures(path: str | Path) -> tuple[list[dict[str, Any]], str]:
    """The cases of a JSON-lines fixture and the digest of its bytes."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise FixtureError(f"cannot read {path}: {error.strerror}") from None
    cases: list[dict[str, Any]] = []
    for number, line in enumerate(raw.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except ValueError:
            case = None
        if not isinstance(case, dict) or not {"id", "beliefs", "labels"} <= set(case):
            raise FixtureError(f"{path}:{number}: not a labelled case")
        cases.append(case)
    if len({case["id"] for case in cases}) != len(cases):
        raise FixtureError(f"{path}: case ids repeat")
    return cases, hashlib.sha256(raw).hexdigest()


class _Rollback(Exception):
    """Leaves a case's transaction without committing anything."""


def _load(principal: User, case: dict[str, Any]) -> dict[str, Belief]:
    """The case's beliefs, by key, each with a message in every session it cites."""
    sessions: dict[str, tuple[Session, datetime]] = {}
    beliefs: dict[str, Belief] = {}
    first_session_at = timezone.now().replace(microsecond=0) - timedelta(
        days=FIRST_SESSION_DAYS_AGO
    )
    for spec in case["beliefs"]:
        events: list[Any] = []
        for label in spec["sessions"]:
            if label not in sessions:
                sessions[label] = (
                    session_create(principal=principal),
                    first_session_at + timedelta(days=len(sessions)),
                )
            session, at = sessions[label]
            events.append(
                event_append(
                    principal=principal,
                    session_id=session.public_id,
                    event_type=EventType.USER_MESSAGE,
                    parts=[{"type": "text", "text": spec["statement"]}],
                    occurred_at=at,
                )
            )
        status = spec.get("status", BeliefStatus.ACTIVE)
        beliefs[spec["key"]] = belief_import(
            principal=principal,
            status=status,
            source_event_ids=[event.public_id for event in events],
            type=spec["type"],
            subject=spec["subject"],
            statement=spec["statement"],
            polarity=spec["polarity"],
            confidence=CONFIDENCE[status],
            scope=spec["scope"],
            portability=spec["portability"],
            sensitivity=spec["sensitivity"],
            valid_from=_moment(spec.get("valid_from")),
            valid_until=_moment(spec.get("valid_until")),
            expires_at=None,
        )
    return beliefs


def _moment(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _delete(principal: User, case: dict[str, Any], beliefs: dict[str, Belief]) -> None:
    for spec in case["beliefs"]:
        if spec.get("delete_after_pass"):
            with principal_context(principal):
                belief = Belief.objects.get(owner=principal, pk=beliefs[spec["key"]].pk)
            belief_delete(
                principal=principal, belief_id=belief.public_id, expected_revision=belief.revision
            )


def _derived(principal: User, keys: dict[int, str]) -> list[dict[str, Any]]:
    """Every derived memory of the principal, whatever its status, in the case's keys."""
    with principal_context(principal):
        rows = list(
            DerivedMemory.objects.filter(owner=principal)
            .order_by("id")
            .values(
                "id",
                "kind",
                "status",
                "statement",
                "subject",
                "sensitivity",
                "portability",
                "scope",
            )
        )
        sources: dict[int, list[int]] = {}
        for derived_id, belief_id in Lineage.objects.filter(
            owner=principal, derived__in=[row["id"] for row in rows], role=Lineage.Role.SOURCE
        ).values_list("derived_id", "belief_id"):
            sources.setdefault(derived_id, []).append(belief_id)
        own = set(
            Belief.objects.filter(
                owner=principal, pk__in={b for ids in sources.values() for b in ids}
            ).values_list("pk", flat=True)
        )
        claims: dict[int, list[dict[str, Any]]] = {}
        for claim in (
            SummaryClaim.objects.filter(owner=principal, derived__in=[row["id"] for row in rows])
            .order_by("derived_id", "position")
            .prefetch_related("support")
        ):
            claims.setdefault(claim.derived_id, []).append(
                {
                    "statement": claim.statement,
                    "supports": sorted(keys.get(s.belief_id, "?") for s in claim.support.all()),
                }
            )
    return [
        {
            **{name: value for name, value in row.items() if name != "id"},
            "sources": sorted(keys[b] for b in sources.get(row["id"], ()) if b in keys),
            "foreign_sources": sum(1 for b in sources.get(row["id"], ()) if b not in own),
            "claims": claims.get(row["id"], []),
        }
        for row in rows
    ]


def _ranking(
    principal: User,
    query: str,
    keys_by_public_id: dict[str, str],
    *,
    include: Sequence[str],
    k: int,
) -> list[dict[str, Any]]:
    # The evaluation measures derived recall before any certificate allows it.
    with derived_recall_evaluating():
        result = recall(principal=principal, query=query, include=include, limit=k)
    return [
        {"kind": "belief", "key": keys_by_public_id.get(item.id, "?")}
        if item.kind == "belief"
        else {"kind": item.kind, "derived_kind": item.derived_kind}
        for item in result.items
    ]


def _observe(
    principal: User,
    case: dict[str, Any],
    beliefs: dict[str, Belief],
    observation: dict[str, Any],
    *,
    k: int,
) -> None:
    keys = {belief.pk: key for key, belief in beliefs.items()}
    observation["derived"] = _derived(principal, keys)
    by_public_id = {str(belief.public_id): key for key, belief in beliefs.items()}
    for query in dict.fromkeys(q["query"] for q in case["labels"]["queries"]):
        observation["queries"].append(
            {
                "query": query,
                "control": _ranking(principal, query, by_public_id, include=(), k=k),
                "derived": _ranking(principal, query, by_public_id, include=("derived",), k=k),
            }
        )


def _assisted_reviews(principal: User, holder: str, *, live: bool = False) -> list[Any]:
    """Model-assisted merge and topic reviews of the bank, in rounds until a round applies
    nothing; their reports. ``live``: under the egress rules and the owner's choice, as
    the maintenance slot calls them (provider qualification), not as an evaluation run."""
    reports: list[Any] = []
    for _ in range(REVIEWS_PER_BANK):
        applied = 0
        for review in (assisted_review, topic_review):
            if not lease_acquire(principal, holder):
                raise RuntimeError("the evaluation's principal is leased elsewhere")
            try:
                report = review(
                    principal,
                    holder=holder,
                    deadline_seconds=REVIEW_SECONDS,
                    evaluation=not live,
                    qualifying=live,
                )
            finally:
                lease_release(principal, holder)
            reports.append(report)
            applied += report.outcomes.get("applied", 0)
        if not applied:
            break
    return reports


class ProviderCallRow(TypedDict):
    """One provider call of a bank's reviews, content-free."""

    stage: str
    state: str
    validation: str
    error_class: str
    reserved_micros: int
    charged_micros: int | None
    input_tokens: int | None
    output_tokens: int | None


def _provider_calls(principal: User) -> list[ProviderCallRow]:
    """Every call of the bank's reviews, content-free, uncertain ones included."""
    return list(
        ProviderCall.objects.filter(principal=principal)
        .order_by("id")
        .values(
            "stage",
            "state",
            "validation",
            "error_class",
            "reserved_micros",
            "charged_micros",
            "input_tokens",
            "output_tokens",
        )
    )


def _run_arm(
    principal: User,
    case: dict[str, Any],
    observation: dict[str, Any],
    *,
    arm: str,
    k: int,
    run: str,
    live: bool = False,
) -> None:
    beliefs = _load(principal, case)
    passes = 0
    if arm != CONTROL:
        passes, _ = reconsolidate_bank(principal)
    if arm == PROVIDER:
        reviews = _assisted_reviews(principal, f"evaluation-{run}", live=live)
        observation["reviews"] = [
            {
                "stopped": r.stopped,
                "calls": r.calls,
                "proposed": r.proposed,
                "dropped": r.dropped,
                "outcomes": r.outcomes,
            }
            for r in reviews
        ]
        more, _ = reconsolidate_bank(principal)
        passes += more
    _delete(principal, case, beliefs)
    if arm != CONTROL:
        # After a deletion, a pass must not bring anything of it back.
        more, _ = reconsolidate_bank(principal)
        passes += more
    observation["passes"] = passes
    _observe(principal, case, beliefs, observation, k=k)


def evaluate_case(
    case: dict[str, Any], *, k: int, run: str, arm: str = ARM, live: bool = False
) -> dict[str, Any]:
    """What the system did with one labelled bank in ``arm``; nothing of it is kept.
    ``live``: the provider arm's reviews run as the maintenance slot runs them."""
    username = f"reconsolidation-eval-{run}-{arm}-{case['id']}"[:150]
    observation: dict[str, Any] = {
        "case": case["id"],
        "derived": [],
        "queries": [],
        "passes": 0,
        "failed": None,
    }
    try:
        if arm == PROVIDER:
            principal = User.objects.create_user(username=username)
            try:
                _run_arm(principal, case, observation, arm=arm, k=k, run=run, live=live)
            finally:
                observation["provider_calls"] = _provider_calls(principal)
                account_purge(principal=principal)
        else:
            with transaction.atomic():
                principal = User.objects.create_user(username=username)
                _run_arm(principal, case, observation, arm=arm, k=k, run=run)
                raise _Rollback
    except _Rollback:
        pass
    except (ReverieError, RuntimeError) as error:
        # A failed case with its reason, never a dropped one.
        observation = {**observation, "derived": [], "queries": [], "failed": repr(error)}
    return observation


def _calls_summary(observations: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Content-free totals of an arm's provider calls: by state, and what they charged."""
    calls = [call for o in observations for call in o.get("provider_calls", [])]
    states: dict[str, int] = {}
    for call in calls:
        states[call["state"]] = states.get(call["state"], 0) + 1
    return {
        "calls": len(calls),
        "states": dict(sorted(states.items())),
        # Charged where usage is known; the whole reservation where it is not.
        "charged_micros": sum(
            call["reserved_micros"] if call["charged_micros"] is None else call["charged_micros"]
            for call in calls
        ),
        "uncertain_micros": sum(
            call["reserved_micros"] for call in calls if call["charged_micros"] is None
        ),
    }


def evaluate_reconsolidation(
    path: str | Path,
    *,
    k: int,
    out_dir: str | Path,
    arms: Collection[str] = (ARM,),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run every case of the fixture at ``path`` in each of ``arms`` (control first, frozen in
    ``control.json``); write and return ``results.json``."""
    unknown = set(arms) - set(RECONSOLIDATION_ARMS)
    if unknown or not arms:
        raise FixtureError(
            f"unknown arms {sorted(unknown)}; choose from {', '.join(RECONSOLIDATION_ARMS)}"
        )
    provider = provider_binding() if PROVIDER in arms else ""
    if provider is None:
        raise FixtureError(
            "the reconsolidation_provider arm calls the configured provider and none is "
            "configured (REVERIE_PROVIDER_BASE_URL and REVERIE_PROVIDER_MODEL)"
        )
    cases, digest = read_fixtures(path)
    run = get_random_string(8).lower()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    observed: dict[str, list[dict[str, Any]]] = {}
    seconds: dict[str, float] = {}
    for arm in [a for a in RECONSOLIDATION_ARMS if a in arms]:
        started = time.perf_counter()
        observations: list[dict[str, Any]] = []
        for case in cases:
            observation = evaluate_case(case, k=k, run=run, arm=arm)
            if progress and observation["failed"]:
                progress(f"{arm}: case {case['id']} failed: {observation['failed']}")
            observations.append(observation)
        observed[arm] = observations
        seconds[arm] = round(time.perf_counter() - started, 1)
        if arm == CONTROL:
            # Frozen before any pass runs: what the originals alone answer.
            (out_dir / "control.json").write_text(
                json.dumps({"dataset_digest": digest, "observed": observations}, indent=1),
                encoding="utf-8",
            )
    results: dict[str, Any] = {
        "meta": {
            "evaluation": ARM,
            "policy_versions": policy_versions(),
            "code_digest": code_digest(),
            "code_digests": {part: code_digest([part]) for part in POLICY_ENTRIES},
            "dataset_digest": digest,
            "dataset": Path(path).name,
            "database": database_description(),
            "provider": provider,
            "settings": {
                "k": k,
                "slice_beliefs": settings.REVERIE_RECONSOLIDATION["slice_beliefs"],
                "recall_budget_chars": settings.REVERIE_LIMITS["recall_default_budget_chars"],
            },
            "seconds": seconds,
        },
        "labels": {"cases": cases},
        "arms": {
            arm: reconsolidation_metrics(cases, observations, k=k)
            for arm, observations in observed.items()
        },
        "observed": observed,
        "cases": [],
    }
    if PROVIDER in observed:
        results["meta"]["provider_calls"] = _calls_summary(observed[PROVIDER])
    (out_dir / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results
