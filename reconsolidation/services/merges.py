"""Applying a merge plan: one transaction, rechecking everything the plan read."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from memory.enums import LIVE_BELIEF_STATUSES, Portability, Sensitivity, most_restrictive
from memory.models import Belief, BeliefSource, FencedEvent
from memory.principal import principal_context
from reconsolidation.models import DerivedMemory, Lineage, Operation
from reconsolidation.planning import POLICY_VERSION


class Outcome:
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    STALE = "stale"
    FENCED = "fenced"
    POLICY_CHANGED = "policy_changed"


def _stale(plan, current):
    return any(
        (belief := current.get(source.pk)) is None
        or belief.status not in LIVE_BELIEF_STATUSES
        or belief.revision != source.revision
        for source in plan.sources
    )


def _fenced(principal, beliefs):
    """Whether a deletion fence forbids this claim from these beliefs' source messages."""
    return FencedEvent.objects.filter(
        owner=principal,
        fence__fingerprint__in={belief.fingerprint for belief in beliefs},
        event__in=BeliefSource.objects.filter(owner=principal, belief__in=beliefs).values(
            "event_id"
        ),
    ).exists()


def merge_apply(*, principal, plan, policy_version=POLICY_VERSION):
    """Commit ``plan`` as a merge operation; return ``(outcome, operation or None)``.

    Nothing is held open while planning: here, in one transaction, the sources
    are locked and must still be live at the revisions the plan read, the
    policy must be the one the plan was made under, and no deletion fence may
    forbid the claim. A merge covering a different group of these beliefs is
    invalidated ("regrouped"); the same group merged already is a no-op.
    """
    with principal_context(principal), transaction.atomic():
        if policy_version != POLICY_VERSION:
            return Outcome.POLICY_CHANGED, None
        current = {
            belief.pk: belief
            for belief in Belief.objects.select_for_update()
            .filter(owner=principal, pk__in=plan.belief_ids)
            .order_by("id")
        }
        if _stale(plan, current):
            return Outcome.STALE, None
        beliefs = [current[source.pk] for source in plan.sources]
        if _fenced(principal, beliefs):
            return Outcome.FENCED, None
        overlapping = list(
            DerivedMemory.objects.select_for_update().filter(
                owner=principal,
                kind=DerivedMemory.Kind.MERGED,
                status=DerivedMemory.Status.ACTIVE,
                pk__in=Lineage.objects.filter(
                    owner=principal, belief_id__in=plan.belief_ids
                ).values("derived_id"),
            )
        )
        for derived in overlapping:
            covered = set(derived.lineage.values_list("belief_id", flat=True))
            if covered == set(plan.belief_ids):
                return Outcome.ALREADY_APPLIED, derived.operation
        _invalidate_regrouped(principal, overlapping)
        operation = Operation.objects.create(
            owner=principal,
            kind=Operation.Kind.MERGE,
            state=Operation.State.APPLIED,
            policy_version=policy_version,
            inputs=[
                {"belief": str(belief.public_id), "revision": belief.revision} for belief in beliefs
            ],
        )
        first = beliefs[0]
        evidence = [belief.evidence_at for belief in beliefs if belief.evidence_at]
        derived = DerivedMemory.objects.create(
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
        Lineage.objects.bulk_create(
            Lineage(
                owner=principal, derived=derived, belief=belief, belief_revision=belief.revision
            )
            for belief in beliefs
        )
        return Outcome.APPLIED, operation


def _invalidate_regrouped(principal, derived_memories):
    if not derived_memories:
        return
    now = timezone.now()
    ids = [derived.pk for derived in derived_memories]
    Operation.objects.filter(
        owner=principal, outputs__in=ids, state=Operation.State.APPLIED
    ).update(
        state=Operation.State.INVALIDATED,
        invalidation_reason="regrouped",
        revision=F("revision") + 1,
        updated_at=now,
    )
    DerivedMemory.objects.filter(owner=principal, pk__in=ids).update(
        status=DerivedMemory.Status.INVALIDATED, revision=F("revision") + 1, updated_at=now
    )
