"""Tentative hypotheses: how one is shown, when it ends, and the owner's promotion of one.

A hypothesis is never evidence. Nothing here turns one into a belief except
``hypothesis_promote``, an explicit action of the owner.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import conflict
from memory.enums import (
    LIVE_BELIEF_STATUSES,
    BeliefType,
    Polarity,
    Portability,
    Sensitivity,
    most_restrictive,
)
from memory.models import Belief, BeliefSource
from memory.services.beliefs import belief_remember
from reconsolidation.models import DerivedMemory, Lineage, Operation, Suppression
from reconsolidation.planners.hypotheses import (
    CONFIDENCE_CAP,
    HypothesisPlan,
    configured_lifetime,
    hypothesis_lifetime,
    promotion_statement,
)
from reconsolidation.services.owner_actions import derived_for_update

if TYPE_CHECKING:
    # ``operations`` calls into this module with the beliefs it locked.
    from .operations import LockedBelief

# Once promoted, the connection is the owner's own belief: guessing it again
# would only duplicate it.
PROMOTED = "promoted"


def hypothesis_view(
    principal: User,
    operation: Operation,
    beliefs: Sequence["LockedBelief"],
    plan: HypothesisPlan,
    lifetime: tuple[datetime, datetime],
) -> DerivedMemory:
    """The derived memory of a hypothesis over ``beliefs`` (locked, at the revisions planned).

    As restricted as its most restricted source, no surer than its least sure
    source or the cap, and as old as its newest evidence: its lifetime
    (``hypothesis_lifetime`` of ``beliefs``: newest evidence, end) counts from
    that evidence, never from now.
    """
    evidence_at, expires_at = lifetime
    return DerivedMemory(
        owner=principal,
        operation=operation,
        kind=DerivedMemory.Kind.HYPOTHESIS,
        type=BeliefType.FACT,
        subject=plan.subjects[0],
        statement=plan.statement,
        polarity=Polarity.POSITIVE,
        scope=beliefs[0].scope,
        sensitivity=most_restrictive(Sensitivity, [b.sensitivity for b in beliefs]),
        portability=most_restrictive(Portability, [b.portability for b in beliefs]),
        confidence=min(CONFIDENCE_CAP, *(belief.confidence for belief in beliefs)),
        evidence_at=evidence_at,
        expires_at=expires_at,
    )


def hypothesis_lifetime_locked(
    beliefs: Sequence["LockedBelief"],
) -> tuple[datetime, datetime] | None:
    """The lifetime of a hypothesis over the locked ``beliefs``; None when they hold no
    evidence, and so can ground no hypothesis."""
    return hypothesis_lifetime(beliefs, configured_lifetime())


def hypotheses_expire(*, principal: User, now: datetime | None = None) -> int:
    """End the principal's active hypotheses whose lifetime is over; return how many.

    Their operations become invalidated ("expired"). Nothing is erased: the
    owner's history keeps them.
    """
    now = now or timezone.now()
    with principal_transaction(principal):
        expiring = dict(
            DerivedMemory.objects.select_for_update()
            .filter(
                owner=principal,
                kind=DerivedMemory.Kind.HYPOTHESIS,
                status=DerivedMemory.Status.ACTIVE,
                expires_at__lte=now,
            )
            .values_list("pk", "operation_id")
        )
        if not expiring:
            return 0
        changed_at = timezone.now()
        Operation.objects.filter(
            owner=principal, pk__in=set(expiring.values()), state=Operation.State.APPLIED
        ).update(
            state=Operation.State.INVALIDATED,
            invalidation_reason="expired",
            revision=F("revision") + 1,
            updated_at=changed_at,
        )
        return DerivedMemory.objects.filter(owner=principal, pk__in=list(expiring)).update(
            status=DerivedMemory.Status.EXPIRED, revision=F("revision") + 1, updated_at=changed_at
        )


def _hypothesis_for_update(
    principal: User, derived_id: object, expected_revision: object
) -> DerivedMemory:
    derived = derived_for_update(
        principal, derived_id, expected_revision, kind=DerivedMemory.Kind.HYPOTHESIS
    )
    if derived.status != DerivedMemory.Status.ACTIVE or (
        derived.expires_at is not None and derived.expires_at <= timezone.now()
    ):
        raise conflict(
            "Only an active, unexpired hypothesis can be promoted.",
            field="status",
            status=derived.status,
        )
    return derived


def hypothesis_promote(
    *,
    principal: User,
    derived_id: object,
    expected_revision: object,
    statement: str | None = None,
) -> Belief:
    """The owner asserts a hypothesis: it becomes a durable belief of theirs; return the belief.

    The belief is the owner's explicit statement (``statement``, or the
    connection the hypothesis names), with every source event of the
    hypothesis's sources as its sources, and no wider visibility than the
    hypothesis. The hypothesis is marked promoted and never guessed again.
    """
    with principal_transaction(principal):
        derived = _hypothesis_for_update(principal, derived_id, expected_revision)
        belief_ids = list(
            Lineage.objects.filter(
                owner=principal, derived=derived, role=Lineage.Role.SOURCE
            ).values_list("belief_id", flat=True)
        )
        sources = list(
            Belief.objects.select_for_update()
            .filter(owner=principal, pk__in=belief_ids)
            .order_by("id")
        )
        if len(sources) != len(belief_ids) or any(
            source.status not in LIVE_BELIEF_STATUSES for source in sources
        ):
            raise conflict("A source of the hypothesis has changed.", field="status")
        events = (
            BeliefSource.objects.filter(
                owner=principal, belief_id__in=belief_ids, event__redacted_at__isnull=True
            )
            .order_by("event__occurred_at", "event_id")
            .values_list("event__public_id", flat=True)
        )
        if statement is None:
            statement = promotion_statement(derived.subject, sources)
        belief: Belief = belief_remember(
            principal=principal,
            statement=statement,
            subject=derived.subject,
            scope=derived.scope,
            sensitivity=derived.sensitivity,
            portability=derived.portability,
            source_event_ids=list(dict.fromkeys(events)),
        )
        if derived.fingerprint:
            Suppression.objects.get_or_create(
                owner=principal, fingerprint=derived.fingerprint, defaults={"reason": PROMOTED}
            )
        derived.status = DerivedMemory.Status.PROMOTED
        derived.revision += 1
        derived.save(update_fields=["status", "revision", "updated_at"])
        return belief
