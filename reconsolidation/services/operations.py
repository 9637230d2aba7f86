"""Applying plans (merges, summaries, hypotheses, uncertainty notices): one transaction per
group of plans, each rechecked against everything it read."""

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple, TypeVar
from uuid import UUID

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.lookups import AnyOf
from memory.enums import LIVE_BELIEF_STATUSES, Portability, Sensitivity, most_restrictive
from memory.models import Belief, BeliefSource, FencedEvent
from memory.services.vectors import vectors_due
from reconsolidation.models import DerivedMemory, Lineage, Operation, Suppression
from reconsolidation.planners.hypotheses import HypothesisPlan
from reconsolidation.planners.summaries import ClaimPlan, SummaryPlan
from reconsolidation.planning import (
    Plan,
    current_policy_version,
    notice_statement,
    suppression_fingerprint,
)
from reconsolidation.rows import rows_insert

from .hypotheses import hypothesis_lifetime_locked, hypothesis_view
from .summaries import (
    LINEAGE_COLUMNS,
    LineageRow,
    summary_claims_create,
    summary_dependents,
    summary_lineage,
    summary_restated_ids,
    summary_shown,
    summary_view,
)

# What each kind of plan becomes.
KINDS: dict[str, tuple[str, str]] = {
    "merge": (Operation.Kind.MERGE, DerivedMemory.Kind.MERGED),
    "uncertainty_notice": (
        Operation.Kind.UNCERTAINTY_NOTICE,
        DerivedMemory.Kind.UNCERTAINTY_NOTICE,
    ),
    "hypothesis": (Operation.Kind.HYPOTHESIS, DerivedMemory.Kind.HYPOTHESIS),
    "summary": (Operation.Kind.SUMMARY, DerivedMemory.Kind.SUMMARY),
}
# Kinds whose plans may share beliefs (one belief can ground connections to
# several subjects): of these, only a derived memory with the plan's own
# fingerprint is the plan done before, or to be regrouped by it.
SHARED_SOURCE_KINDS = frozenset({"hypothesis"})


class Outcome:
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    STALE = "stale"
    FENCED = "fenced"
    SUPPRESSED = "suppressed"
    POLICY_CHANGED = "policy_changed"


class LockedBelief(NamedTuple):
    """What the committing transaction reads of a locked source: enough to recheck a plan
    and to write what it derives. Rows, not models: a group of summaries locks every
    belief of its subjects."""

    pk: int
    public_id: UUID
    status: str
    revision: int
    fingerprint: str
    type: str
    subject: str
    statement: str
    polarity: str
    scope: str
    sensitivity: str
    portability: str
    confidence: float
    valid_from: datetime | None
    valid_until: datetime | None
    evidence_at: datetime | None
    expires_at: datetime | None


class LockedDerived(NamedTuple):
    """What the committing transaction weighs of an active derived memory a plan may
    repeat or regroup. Rows, not models: a popular subject's summary, long as its
    subject's claims, depends on beliefs of every group."""

    pk: int
    kind: str
    subject: str
    scope: str
    fingerprint: str
    assisted: bool


@dataclass(eq=False)
class _Group:
    """What the committing transaction read once for all plans of a group, under lock
    (``_group_load``), and the checks each plan must pass against it."""

    # The plans' sources, locked, by primary key.
    beliefs: dict[int, LockedBelief]
    # Event ids each belief was formed from, for the beliefs whose claim a plan may restate
    # and a fence names.
    sources: dict[int, set[int]]
    # (belief fingerprint, event id) pairs a deletion fence forbids.
    fenced: set[tuple[str, int]]
    # Derived memory ids depending on each belief, by belief id.
    depending: dict[int, set[int]]
    # Active summaries of a planned summary's subject.
    same_subject: set[int]
    # The active derived memories among ``depending``, locked, by primary key.
    active: dict[int, LockedDerived]
    # The beliefs covered by each active derived memory a plan may repeat or regroup.
    covered: dict[int, set[int]]
    # Each plan's suppression fingerprint.
    fingerprints: dict[Plan, str]
    # The fingerprints among the plans' and their claims' that the owner dismissed.
    suppressed: set[str]
    # A summary's claims that survive the owner's earlier rejections, by plan.
    shown: dict[SummaryPlan, tuple[ClaimPlan, ...]] = field(default_factory=dict)
    # A hypothesis's (newest evidence, end of life) from its locked sources, by plan.
    lifetimes: dict[HypothesisPlan, tuple[datetime, datetime]] = field(default_factory=dict)

    def outcome(self, plan: Plan) -> str | None:
        """Stale, fenced, already applied, or None when the plan may be applied."""
        for source in plan.sources:
            belief = self.beliefs.get(source.pk)
            if (
                belief is None
                or belief.status not in LIVE_BELIEF_STATUSES
                or belief.revision != source.revision
            ):
                return Outcome.STALE
        if isinstance(plan, HypothesisPlan):
            lifetime = hypothesis_lifetime_locked([self.beliefs[s.pk] for s in plan.sources])
            if lifetime is None:
                # Its sources no longer hold the evidence it was planned on.
                return Outcome.STALE
            self.lifetimes[plan] = lifetime
        if isinstance(plan, SummaryPlan):
            shown = summary_shown(plan, self.suppressed)
            if shown is None:
                # Too few claims left once those the owner rejected are left out.
                return Outcome.SUPPRESSED
            self.shown[plan] = shown
        for pk in self.restated(plan):
            fingerprint = self.beliefs[pk].fingerprint
            if any((fingerprint, event) in self.fenced for event in self.sources.get(pk, ())):
                return Outcome.FENCED
        if self.fingerprints[plan] in self.suppressed:
            # The owner rejected or deleted this claim when it was derived before.
            return Outcome.SUPPRESSED
        if any(self.covered.get(d) == set(plan.belief_ids) for d in self.overlapping(plan)):
            return Outcome.ALREADY_APPLIED
        if plan.kind == "merge" and any(
            self.active[d].assisted and set(plan.belief_ids) <= self.covered.get(d, set())
            for d in self.overlapping(plan)
        ):
            # A verified merge of more wordings holds these already: the equal wordings
            # inside it do not take it apart again.
            return Outcome.ALREADY_APPLIED
        return None

    def restated(self, plan: Plan) -> Collection[int]:
        """The sources whose claim ``plan`` repeats or builds on, which a fence may forbid.

        A merge restates its sources' claim and a summary the claims it shows;
        a hypothesis builds on its sources; a notice states nothing of them.
        """
        if isinstance(plan, SummaryPlan):
            return summary_restated_ids(self.shown[plan])
        return plan.belief_ids if plan.kind in ("merge", "hypothesis") else ()

    def overlapping(self, plan: Plan) -> set[int]:
        """Active derived memories of the plan's kind that share a belief with it."""
        _, kind = KINDS[plan.kind]
        fingerprint = self.fingerprints[plan] if plan.kind in SHARED_SOURCE_KINDS else None
        found = {
            derived_id
            for pk in plan.belief_ids
            for derived_id in self.depending.get(pk, ())
            if derived_id in self.active
            and self.active[derived_id].kind == kind
            and fingerprint in (None, self.active[derived_id].fingerprint)
        }
        if isinstance(plan, SummaryPlan):
            # One active summary per subject and scope, whatever beliefs it covered; and
            # only of its own subject: a memory is in its subject's summary and in the
            # summaries of the names it mentions, which must not replace each other.
            found = {
                derived_id
                for derived_id in found | self.same_subject
                if derived_id in self.active
                and (self.active[derived_id].subject, self.active[derived_id].scope)
                == (plan.subject, plan.scope)
            }
        return found


def _group_load(principal: User, plans: Sequence[Plan]) -> _Group:
    """Lock and read what ``plans`` are rechecked against, in a fixed number of queries
    however many plans there are: the sources are locked first, then the active derived
    memories that depend on them."""
    beliefs = {
        row[0]: LockedBelief._make(row)
        for row in Belief.objects.select_for_update()
        .filter(AnyOf(F("id"), {pk for plan in plans for pk in plan.belief_ids}), owner=principal)
        .order_by("id")
        .values_list("id", *LockedBelief._fields[1:])
    }
    looked_up = _looked_up(plans)
    fenced = set(
        FencedEvent.objects.filter(
            owner=principal,
            fence__fingerprint__in={beliefs[pk].fingerprint for pk in looked_up if pk in beliefs},
        ).values_list("fence__fingerprint", "event_id")
    )
    # Only a belief whose claim a fence names can be forbidden by its events.
    fenced_claims = {fingerprint for fingerprint, _ in fenced}
    sources = _grouped(
        BeliefSource.objects.filter(
            AnyOf(
                F("belief_id"),
                [
                    pk
                    for pk in looked_up
                    if pk in beliefs and beliefs[pk].fingerprint in fenced_claims
                ],
            ),
            owner=principal,
        ).values_list("belief_id", "event_id")
    )
    depending, same_subject = _dependents(principal, plans, looked_up)
    active = {
        row[0]: LockedDerived._make(row)
        for row in DerivedMemory.objects.select_for_update()
        .filter(
            owner=principal,
            pk__in={d for derived_ids in depending.values() for d in derived_ids},
            status=DerivedMemory.Status.ACTIVE,
        )
        .values_list(*LockedDerived._fields)
    }
    needed = _needed(plans, depending, same_subject, active)
    covered = _grouped(
        Lineage.objects.filter(owner=principal, derived_id__in=list(needed)).values_list(
            "derived_id", "belief_id"
        )
    )
    fingerprints = {plan: suppression_fingerprint(plan) for plan in plans}
    suppressed = _suppressed(principal, plans, fingerprints)
    return _Group(
        beliefs=beliefs,
        sources=sources,
        fenced=fenced,
        depending=depending,
        same_subject=same_subject,
        active=active,
        covered=covered,
        fingerprints=fingerprints,
        suppressed=suppressed,
    )


def _looked_up(plans: Iterable[Plan]) -> set[int]:
    """The beliefs whose sources and dependents the group reads.

    A summary repeats only the claims it shows, and what it may regroup is found by
    its subject (``_dependents``): the other beliefs of a popular subject need no
    lookup of their own.
    """
    return {
        pk
        for plan in plans
        for pk in (
            summary_restated_ids(plan.claims) if isinstance(plan, SummaryPlan) else plan.belief_ids
        )
    }


def _dependents(
    principal: User, plans: Sequence[Plan], looked_up: Collection[int]
) -> tuple[dict[int, set[int]], set[int]]:
    """``({belief id: {derived id}}, {summary id})``: the derived memories that depend on
    the ``looked_up`` beliefs, and the active summaries of a planned summary's subject."""
    # Explicit ids, not subqueries, so that the lineage index drives the
    # lookups whatever the planner estimates.
    depending = _grouped(
        Lineage.objects.filter(AnyOf(F("belief_id"), looked_up), owner=principal).values_list(
            "belief_id", "derived_id"
        )
    )
    # Active summaries of a planned summary's subject: the plan repeats or regroups
    # them even where they cover beliefs the plan no longer holds.
    same_subject: set[int] = set()
    for derived_id, belief_id in summary_dependents(principal, plans):
        depending.setdefault(belief_id, set()).add(derived_id)
        same_subject.add(derived_id)
    return depending, same_subject


def _needed(
    plans: Iterable[Plan],
    depending: Mapping[int, Collection[int]],
    same_subject: Collection[int],
    active: Mapping[int, LockedDerived],
) -> set[int]:
    """The active derived memories whose whole lineage the group must read.

    Only a derived memory of a plan's own kind can be that plan done before, or be
    regrouped by it: reading the whole lineage of every other one (a popular
    subject's summary, under the merges of every group) would cost a full bank per
    group.
    """
    kinds: dict[int, set[str]] = {}
    for plan in plans:
        for pk in plan.belief_ids:
            kinds.setdefault(pk, set()).add(KINDS[plan.kind][1])
    return {
        derived_id
        for belief_id, derived_ids in depending.items()
        for derived_id in derived_ids
        if derived_id in active
        and (derived_id in same_subject or active[derived_id].kind in kinds.get(belief_id, ()))
    }


def _suppressed(
    principal: User, plans: Iterable[Plan], fingerprints: Mapping[Plan, str]
) -> set[str]:
    """The fingerprints, of the plans and of their summaries' claims, the owner dismissed."""
    claim_fingerprints = {
        claim.fingerprint
        for plan in plans
        if isinstance(plan, SummaryPlan)
        for claim in plan.claims
    }
    return set(
        Suppression.objects.filter(
            owner=principal,
            fingerprint__in=set(fingerprints.values()) | claim_fingerprints,
        ).values_list("fingerprint", flat=True)
    )


_K = TypeVar("_K")
_V = TypeVar("_V")


def _grouped(pairs: Iterable[tuple[_K, _V]]) -> dict[_K, set[_V]]:
    """``{key: {value}}`` of ``(key, value)`` pairs."""
    grouped: dict[_K, set[_V]] = {}
    for key, value in pairs:
        grouped.setdefault(key, set()).add(value)
    return grouped


def operations_apply(*, principal: User, plans: Sequence[Plan]) -> list[str]:
    """Commit ``plans`` as operations in one transaction; return their outcomes, in order.

    Nothing is held open while planning: here the sources are locked and must
    still be live at the revisions each plan read, the policy each plan was made
    under must still be the current one (else ``policy_changed``, nothing written
    for it), and no deletion fence may forbid a claim from
    its sources' messages. An operation of the same kind covering a different
    group of a plan's beliefs is invalidated ("regrouped"); the same group
    done already is a no-op. Plans of one kind never share beliefs (each
    planner partitions them) or, for ``SHARED_SOURCE_KINDS``, never share a
    fingerprint, so one plan's outcome cannot change another's.
    """
    if not plans:
        return []
    with principal_transaction(principal):
        current = current_policy_version()
        group = _group_load(principal, plans)
        outcomes: list[str] = []
        applied: list[Plan] = []
        regrouped: set[int] = set()
        for plan in plans:
            if plan.policy_version != current:
                outcomes.append(Outcome.POLICY_CHANGED)
                continue
            outcome = group.outcome(plan)
            if outcome is None:
                outcome = Outcome.APPLIED
                applied.append(plan)
                regrouped |= group.overlapping(plan)
            outcomes.append(outcome)
        _invalidate_regrouped(principal, regrouped)
        _create(principal, applied, group)
        if applied:
            # The new derived memories get their vectors from memory's sweep.
            vectors_due(owner_id=principal.pk)
        return outcomes


def operation_apply(*, principal: User, plan: Plan) -> str:
    """``operations_apply`` for a single plan; return its outcome."""
    (outcome,) = operations_apply(principal=principal, plans=[plan])
    return outcome


def _create(principal: User, plans: Sequence[Plan], group: _Group) -> None:
    sources = [[group.beliefs[source.pk] for source in plan.sources] for plan in plans]
    operations = Operation.objects.bulk_create(
        Operation(
            owner=principal,
            kind=KINDS[plan.kind][0],
            state=Operation.State.APPLIED,
            policy_version=plan.policy_version,
            inputs=[{"belief": str(b.public_id), "revision": b.revision} for b in group],
            provider_call_id=getattr(plan, "provider_call_id", None),
        )
        for plan, group in zip(plans, sources, strict=True)
    )
    views = []
    for plan, operation, beliefs in zip(plans, operations, sources, strict=True):
        if isinstance(plan, HypothesisPlan):
            view = hypothesis_view(principal, operation, beliefs, plan, group.lifetimes[plan])
        elif isinstance(plan, SummaryPlan):
            view = summary_view(
                principal, operation, plan, group.shown[plan], {b.pk: b for b in beliefs}
            )
        else:
            view = (_merged_view if plan.kind == "merge" else _notice)(
                principal, operation, beliefs
            )
        view.assisted = getattr(plan, "assisted", False)
        view.fingerprint = group.fingerprints[plan]
        views.append(view)
    derived = DerivedMemory.objects.bulk_create(views)
    lineage: list[LineageRow] = []
    summaries: list[tuple[DerivedMemory, tuple[ClaimPlan, ...], dict[int, LockedBelief]]] = []
    for plan, view, beliefs in zip(plans, derived, sources, strict=True):
        if isinstance(plan, SummaryPlan):
            by_pk = {belief.pk: belief for belief in beliefs}
            lineage += summary_lineage(principal, view, plan, group.shown[plan], by_pk)
            summaries.append((view, group.shown[plan], by_pk))
        else:
            lineage += [
                (principal.pk, view.pk, belief.pk, belief.revision, Lineage.Role.SOURCE)
                for belief in beliefs
            ]
    rows_insert(Lineage, LINEAGE_COLUMNS, lineage)
    summary_claims_create(principal, summaries)


def _merged_view(
    principal: User, operation: Operation, beliefs: Sequence[LockedBelief]
) -> DerivedMemory:
    """The one view of equivalent beliefs: nothing in it exceeds what its sources say."""
    first = beliefs[0]
    evidence = [belief.evidence_at for belief in beliefs if belief.evidence_at]
    return DerivedMemory(
        owner=principal,
        operation=operation,
        kind=DerivedMemory.Kind.MERGED,
        type=first.type,
        subject=first.subject,
        statement=first.statement,
        polarity=first.polarity,
        scope=first.scope,
        sensitivity=most_restrictive(Sensitivity, [b.sensitivity for b in beliefs]),
        portability=most_restrictive(Portability, [b.portability for b in beliefs]),
        confidence=max(belief.confidence for belief in beliefs),
        valid_from=first.valid_from,
        valid_until=first.valid_until,
        evidence_at=max(evidence) if evidence else None,
    )


def _notice(
    principal: User, operation: Operation, beliefs: Sequence[LockedBelief]
) -> DerivedMemory:
    """A fixed notice that these beliefs contradict each other; it copies none of their text."""
    evidence = [belief.evidence_at for belief in beliefs if belief.evidence_at]
    return DerivedMemory(
        owner=principal,
        operation=operation,
        kind=DerivedMemory.Kind.UNCERTAINTY_NOTICE,
        type=beliefs[0].type,
        subject=beliefs[0].subject,
        statement=notice_statement(beliefs[0].subject, [b.statement for b in beliefs]),
        polarity=beliefs[0].polarity,
        scope=beliefs[0].scope,
        sensitivity=most_restrictive(Sensitivity, [b.sensitivity for b in beliefs]),
        portability=most_restrictive(Portability, [b.portability for b in beliefs]),
        confidence=min(belief.confidence for belief in beliefs),
        evidence_at=max(evidence) if evidence else None,
    )


def _invalidate_regrouped(principal: User, derived_ids: Collection[int]) -> None:
    if not derived_ids:
        return
    now = timezone.now()
    # Explicit ids, not a join: on tables that have grown since they were analysed
    # the planner would probe the derived memories once for every applied operation.
    operation_ids = DerivedMemory.objects.filter(owner=principal, pk__in=derived_ids).values_list(
        "operation_id", flat=True
    )
    Operation.objects.filter(
        owner=principal, pk__in=list(operation_ids), state=Operation.State.APPLIED
    ).update(
        state=Operation.State.INVALIDATED,
        invalidation_reason="regrouped",
        revision=F("revision") + 1,
        updated_at=now,
    )
    DerivedMemory.objects.filter(owner=principal, pk__in=derived_ids).update(
        status=DerivedMemory.Status.INVALIDATED, revision=F("revision") + 1, updated_at=now
    )
