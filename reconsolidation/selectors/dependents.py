"""Which active derived memories depend on given originals."""

from collections.abc import Collection, Iterable

from django.db.models import F

from accounts.models import User
from core.lookups import AnyOf
from reconsolidation.models import DerivedMemory, Lineage


def active_dependents(
    principal: User, belief_ids: Iterable[int], kinds: Collection[str] | None = None
) -> list[tuple[int, int, str]]:
    """``[(derived id, belief id, derived kind)]`` for the active derived memories (of
    ``kinds``, if given) with lineage to one of ``belief_ids``. The caller holds the
    principal's context."""
    # Explicit ids, not a join, so that the lineage index drives the lookup
    # whatever the planner estimates.
    lineage = list(
        Lineage.objects.filter(AnyOf(F("belief_id"), belief_ids), owner=principal).values_list(
            "derived_id", "belief_id"
        )
    )
    active = DerivedMemory.objects.filter(
        owner=principal,
        pk__in={derived_id for derived_id, _ in lineage},
        status=DerivedMemory.Status.ACTIVE,
    )
    if kinds is not None:
        active = active.filter(kind__in=kinds)
    kind_of = dict(active.values_list("pk", "kind"))
    return [
        (derived_id, belief_id, kind_of[derived_id])
        for derived_id, belief_id in lineage
        if derived_id in kind_of
    ]
