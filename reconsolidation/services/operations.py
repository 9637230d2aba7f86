"""Applying plans (merges, uncertainty notices): one transaction per group of plans, each
rechecked against everything it read."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from memory.enums import LIVE_BELIEF_STATUSES, Portability, Sensitivity, most_restrictive
from memory.models import Belief, BeliefSource, FencedEvent
from memory.principal import principal_context
from reconsolidation.models import DerivedMemory, Lineage, Operation, Suppression
from reconsolidation.planning import NOTICE_STATEMENT, POLICY_VERSION, suppression_fingerprint

# What each kind of plan becomes.
KINDS = {
    "merge": (Operation.Kind.MERGE, DerivedMemory.Kind.MERGED),
    "uncertainty_notice": (
        Operation.Kind.UNCERTAINTY_NOTICE,
        DerivedMemory.Kind.UNCERTAINTY_NOTICE,
    ),
}


class Outcome:
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    STALE = "stale"
    FENCED = "fenced"
    SUPPRESSED = "suppressed"
    POLICY_CHANGED = "policy_changed"


class _Group:
    """What the committing transaction reads once for all plans of a group, under lock."""

    def __init__(self, principal, plans):
        ids = {pk for plan in plans for pk in plan.belief_ids}
        self.beliefs = {
            belief.pk: belief
            for belief in Belief.objects.select_for_update()
            .filter(owner=principal, pk__in=ids)
            .order_by("id")
        }
        self.sources = {}
        for belief_id, event_id in BeliefSource.objects.filter(
            owner=principal, belief_id__in=ids
        ).values_list("belief_id", "event_id"):
            self.sources.setdefault(belief_id, set()).add(event_id)
        self.fenced = set(
            FencedEvent.objects.filter(
                owner=principal,
                fence__fingerprint__in={b.fingerprint for b in self.beliefs.values()},
            ).values_list("fence__fingerprint", "event_id")
        )
        # Explicit ids, not subqueries, so that the lineage index drives the
        # lookups whatever the planner estimates.
        depending = {}
        for derived_id, belief_id in Lineage.objects.filter(
            owner=principal, belief_id__in=ids
        ).values_list("derived_id", "belief_id"):
            depending.setdefault(belief_id, set()).add(derived_id)
        self.active = {
            derived.pk: derived
            for derived in DerivedMemory.objects.select_for_update().filter(
                owner=principal,
                pk__in={d for derived_ids in depending.values() for d in derived_ids},
                status=DerivedMemory.Status.ACTIVE,
            )
        }
        self.covered = {}
        for derived_id, belief_id in Lineage.objects.filter(
            owner=principal, derived_id__in=list(self.active)
        ).values_list("derived_id", "belief_id"):
            self.covered.setdefault(derived_id, set()).add(belief_id)
        self.depending = depending
        self.fingerprints = {plan: suppression_fingerprint(plan) for plan in plans}
        self.suppressed = set(
            Suppression.objects.filter(
                owner=principal, fingerprint__in=set(self.fingerprints.values())
            ).values_list("fingerprint", flat=True)
        )

    def outcome(self, plan):
        """Stale, fenced, already applied, or None when the plan may be applied."""
        for source in plan.sources:
            belief = self.beliefs.get(source.pk)
            if (
                belief is None
                or belief.status not in LIVE_BELIEF_STATUSES
                or belief.revision != source.revision
            ):
                return Outcome.STALE
        # A merge restates its sources' claim, which a fence may forbid; a
        # notice states nothing of them.
        for pk in plan.belief_ids if plan.kind == "merge" else ():
            fingerprint = self.beliefs[pk].fingerprint
            if any((fingerprint, event) in self.fenced for event in self.sources.get(pk, ())):
                return Outcome.FENCED
        if self.fingerprints[plan] in self.suppressed:
            # The owner rejected or deleted this claim when it was derived before.
            return Outcome.SUPPRESSED
        if any(self.covered.get(d) == set(plan.belief_ids) for d in self.overlapping(plan)):
            return Outcome.ALREADY_APPLIED
        return None

    def overlapping(self, plan):
        """Active derived memories of the plan's kind that share a belief with it."""
        _, kind = KINDS[plan.kind]
        return {
            derived_id
            for pk in plan.belief_ids
            for derived_id in self.depending.get(pk, ())
            if derived_id in self.active and self.active[derived_id].kind == kind
        }


def operations_apply(*, principal, plans, policy_version=POLICY_VERSION):
    """Commit ``plans`` as operations in one transaction; return their outcomes, in order.

    Nothing is held open while planning: here the sources are locked and must
    still be live at the revisions each plan read, the policy must be the one
    the plans were made under, and no deletion fence may forbid a claim from
    its sources' messages. An operation of the same kind covering a different
    group of a plan's beliefs is invalidated ("regrouped"); the same group
    done already is a no-op. Plans of one kind never share beliefs (each
    planner partitions them), so one plan's outcome cannot change another's.
    """
    if not plans:
        return []
    with principal_context(principal), transaction.atomic():
        if policy_version != POLICY_VERSION:
            return [Outcome.POLICY_CHANGED] * len(plans)
        group = _Group(principal, plans)
        outcomes, applied, regrouped = [], [], set()
        for plan in plans:
            outcome = group.outcome(plan)
            if outcome is None:
                outcome = Outcome.APPLIED
                applied.append(plan)
                regrouped |= group.overlapping(plan)
            outcomes.append(outcome)
        _invalidate_regrouped(principal, regrouped)
        _create(principal, applied, group, policy_version)
        return outcomes


def operation_apply(*, principal, plan, policy_version=POLICY_VERSION):
    """``operations_apply`` for a single plan; return its outcome."""
    (outcome,) = operations_apply(principal=principal, plans=[plan], policy_version=policy_version)
    return outcome


def _create(principal, plans, group, policy_version):
    sources = [[group.beliefs[source.pk] for source in plan.sources] for plan in plans]
    operations = Operation.objects.bulk_create(
        Operation(
            owner=principal,
            kind=KINDS[plan.kind][0],
            state=Operation.State.APPLIED,
            policy_version=policy_version,
            inputs=[{"belief": str(b.public_id), "revision": b.revision} for b in group],
        )
        for plan, group in zip(plans, sources, strict=True)
    )
    views = []
    for plan, operation, beliefs in zip(plans, operations, sources, strict=True):
        view = (_merged_view if plan.kind == "merge" else _notice)(principal, operation, beliefs)
        view.fingerprint = group.fingerprints[plan]
        views.append(view)
    derived = DerivedMemory.objects.bulk_create(views)
    Lineage.objects.bulk_create(
        Lineage(owner=principal, derived=view, belief=belief, belief_revision=belief.revision)
        for view, group in zip(derived, sources, strict=True)
        for belief in group
    )


def _merged_view(principal, operation, beliefs):
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


def _notice(principal, operation, beliefs):
    """A fixed notice that these beliefs contradict each other; it copies none of their text."""
    evidence = [belief.evidence_at for belief in beliefs if belief.evidence_at]
    return DerivedMemory(
        owner=principal,
        operation=operation,
        kind=DerivedMemory.Kind.UNCERTAINTY_NOTICE,
        type=beliefs[0].type,
        subject=beliefs[0].subject,
        statement=NOTICE_STATEMENT,
        polarity=beliefs[0].polarity,
        scope=beliefs[0].scope,
        sensitivity=most_restrictive(Sensitivity, [b.sensitivity for b in beliefs]),
        portability=most_restrictive(Portability, [b.portability for b in beliefs]),
        confidence=min(belief.confidence for belief in beliefs),
        evidence_at=max(evidence) if evidence else None,
    )


def _invalidate_regrouped(principal, derived_ids):
    if not derived_ids:
        return
    now = timezone.now()
    Operation.objects.filter(
        owner=principal, outputs__in=derived_ids, state=Operation.State.APPLIED
    ).update(
        state=Operation.State.INVALIDATED,
        invalidation_reason="regrouped",
        revision=F("revision") + 1,
        updated_at=now,
    )
    DerivedMemory.objects.filter(owner=principal, pk__in=derived_ids).update(
        status=DerivedMemory.Status.INVALIDATED, revision=F("revision") + 1, updated_at=now
    )
