"""Derived memories stop holding when an original they depend on changes."""

from collections.abc import Collection

from django.db.models import F
from django.utils import timezone

from memory.services.vectors import vectors_forget
from reconsolidation.models import DerivedMemory, Lineage, Operation, SummaryClaim
from reconsolidation.search import DERIVED_MEMORIES


def invalidate_dependents(
    *, owner_id: int, belief_ids: Collection[int], erased: bool = False
) -> int:
    """Invalidate every active derived memory that depends on one of ``belief_ids``.

    Runs in the transaction that retired the beliefs (``memory.changes``). When
    a source was erased, the generated copies of its text go too, from active
    and already invalidated derived memories alike.
    """
    if not belief_ids:
        return 0
    # Explicit ids, not subqueries: every belief change runs this, and the
    # lineage index must drive it whatever the planner estimates.
    derived_ids = set(
        Lineage.objects.filter(owner_id=owner_id, belief_id__in=belief_ids).values_list(
            "derived_id", flat=True
        )
    )
    if not derived_ids:
        return 0
    dependents = DerivedMemory.objects.filter(owner_id=owner_id, pk__in=derived_ids)
    now = timezone.now()
    active = dependents.filter(status=DerivedMemory.Status.ACTIVE)
    Operation.objects.filter(
        owner_id=owner_id,
        pk__in=set(active.values_list("operation_id", flat=True)),
        state=Operation.State.APPLIED,
    ).update(
        state=Operation.State.INVALIDATED,
        invalidation_reason="source_changed",
        revision=F("revision") + 1,
        updated_at=now,
    )
    count = active.update(
        status=DerivedMemory.Status.INVALIDATED, revision=F("revision") + 1, updated_at=now
    )
    # None of them is recalled any more; an erased source's copies leave no vector either.
    vectors_forget(owner_id=owner_id, collection=DERIVED_MEMORIES.statistics, row_ids=derived_ids)
    if erased:
        dependents.update(statement="", subject="", updated_at=now)
        # A summary's claims copy text too, and any of them may be the erased one's.
        SummaryClaim.objects.filter(owner_id=owner_id, derived_id__in=derived_ids).update(
            statement=""
        )
    return count
