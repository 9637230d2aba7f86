"""Derived memories as their owner reads them: one, a list, or those about one original.

A derived memory is shown with the ids of the originals it concerns (for a
summary, also those it read but left out), so that a notice or a merge can
always be traced to the memories it speaks of. A restricted one withholds its
generated text and its subject from every read, its owner's included;
lifting the restriction shows them again.
"""

from collections.abc import Collection, Iterable
from uuid import UUID

from django.db.models import QuerySet

from accounts.models import User
from core.errors import not_found, validation_error
from core.ids import parse_public_id
from memory.derived import DerivedView
from memory.models import Belief
from reconsolidation.models import DerivedMemory, Lineage, Operation, Receipt
from reconsolidation.planners.hypotheses import promotion_statement
from reconsolidation.planners.labels import subject_label

# What waits for the owner's decision in the review queue: live views not yet looked at.
AWAITING_REVIEW = {"status": DerivedMemory.Status.ACTIVE, "review_state": "unreviewed"}


def _choices(values: Iterable[str], allowed: Collection[str], field: str) -> list[str]:
    chosen = list(values)
    if unknown := sorted(set(chosen) - set(allowed)):
        raise validation_error(
            f"Unknown {field}: {', '.join(unknown)}.", field=field, allowed=list(allowed)
        )
    return chosen


def derived_list(
    principal: User,
    *,
    kinds: Iterable[str] | None = None,
    statuses: Iterable[str] | None = None,
    review_state: str | None = None,
) -> QuerySet[DerivedMemory]:
    """The principal's derived memories, newest change first; every filter is optional.

    A QuerySet: evaluate it inside the principal's context (a request is).
    """
    rows = DerivedMemory.objects.filter(owner=principal)
    if kinds is not None:
        rows = rows.filter(kind__in=_choices(kinds, DerivedMemory.Kind.values, "derived_kind"))
    if statuses is not None:
        rows = rows.filter(
            status__in=_choices(statuses, DerivedMemory.Status.values, "derived_status")
        )
    if review_state is not None:
        (state,) = _choices([review_state], DerivedMemory.Review.values, "review_state")
        rows = rows.filter(review_state=state)
    return rows.order_by("-updated_at", "-id")


def derived_awaiting_review(principal: User) -> QuerySet[DerivedMemory]:
    """Live derived memories the owner has not reviewed yet, hypotheses among them."""
    return derived_list(principal).filter(**AWAITING_REVIEW)


def derived_get(principal: User, derived_id: object) -> DerivedMemory:
    """One of the principal's derived memories; another owner's answers like a missing one."""
    derived = DerivedMemory.objects.filter(
        owner=principal, public_id=parse_public_id(derived_id, "derived_id")
    ).first()
    if derived is None:
        raise not_found("derived memory")
    return derived


def _lineage(principal: User, derived_ids: Collection[int]) -> dict[int, dict[str, list[str]]]:
    """{derived pk: {"source": [belief public ids], "omitted": [...]}}, oldest belief first."""
    found: dict[int, dict[str, list[str]]] = {}
    for derived_id, role, public_id in (
        Lineage.objects.filter(owner=principal, derived_id__in=derived_ids)
        .order_by("belief_id")
        .values_list("derived_id", "role", "belief__public_id")
    ):
        found.setdefault(derived_id, {}).setdefault(role, []).append(str(public_id))
    return found


def derived_views(principal: User, rows: Iterable[DerivedMemory]) -> list[DerivedView]:
    """``rows`` (derived memories) as plain data for their owner, in two queries in all."""
    derived = list(rows)
    lineage = _lineage(principal, [row.pk for row in derived])
    operations = dict(
        Operation.objects.filter(
            owner=principal, pk__in={row.operation_id for row in derived}
        ).values_list("pk", "public_id")
    )
    return [
        derived_view(
            row,
            operation_id=operations.get(row.operation_id),
            memory_ids=lineage.get(row.pk, {}).get(Lineage.Role.SOURCE, []),
            omitted_memory_ids=lineage.get(row.pk, {}).get(Lineage.Role.OMITTED, []),
        )
        for row in derived
    ]


def derived_view(
    row: DerivedMemory,
    *,
    operation_id: UUID | None,
    memory_ids: Iterable[str],
    omitted_memory_ids: Iterable[str] = (),
) -> DerivedView:
    withheld = row.restricted
    return {
        "id": str(row.public_id),
        "derived_kind": row.kind,
        "status": row.status,
        # An inference, not a view of what was said: never evidence.
        "tentative": row.kind == DerivedMemory.Kind.HYPOTHESIS,
        "review_state": row.review_state,
        "restricted": row.restricted,
        "statement": "" if withheld else row.statement,
        # The key names its entity: withheld with the text.
        "subject": "" if withheld else row.subject,
        "subject_label": "" if withheld else subject_label(row.subject, [row.statement]),
        "type": row.type,
        "polarity": row.polarity,
        "authority": row.authority,
        "scope": row.scope,
        "sensitivity": row.sensitivity,
        "portability": row.portability,
        "confidence": row.confidence,
        "valid_from": row.valid_from,
        "valid_until": row.valid_until,
        "evidence_at": row.evidence_at,
        "expires_at": row.expires_at,
        "revision": row.revision,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "operation_id": str(operation_id) if operation_id else None,
        "memory_ids": list(memory_ids),
        "omitted_memory_ids": list(omitted_memory_ids),
    }


def derived_detail(principal: User, derived_id: object) -> DerivedView:
    """One of the principal's derived memories as plain data (see ``derived_views``)."""
    (view,) = derived_views(principal, [derived_get(principal, derived_id)])
    return view


def derived_about_belief(principal: User, belief: Belief) -> list[DerivedView]:
    """The derived memories that read ``belief`` (any status), newest first, as plain data:
    what a memory's page shows depends on it."""
    derived_ids = Lineage.objects.filter(owner=principal, belief=belief).values_list(
        "derived_id", flat=True
    )
    return derived_views(
        principal,
        DerivedMemory.objects.filter(owner=principal, pk__in=list(derived_ids)).order_by(
            "-updated_at", "-id"
        ),
    )


def derived_sources(principal: User, view: DerivedView) -> dict[str, Belief]:
    """The originals ``view`` names (``memory_ids`` then ``omitted_memory_ids``), as they are
    now: ``{public id: Belief}``."""
    ids = [*view["memory_ids"], *view["omitted_memory_ids"]]
    return {
        str(belief.public_id): belief
        for belief in Belief.objects.filter(owner=principal, public_id__in=ids)
    }


def derived_controls_available(derived: DerivedMemory) -> list[str]:
    """The owner's controls that can apply to ``derived`` as it is now, in the order a page
    offers them: none once it is rejected or deleted; promotion for an active hypothesis."""
    if derived.status in (DerivedMemory.Status.REJECTED, DerivedMemory.Status.DELETED):
        return []
    controls: list[str] = []
    if derived.review_state == DerivedMemory.Review.UNREVIEWED:
        controls.append("review")
    controls.append("unrestrict" if derived.restricted else "restrict")
    if (
        derived.kind == DerivedMemory.Kind.HYPOTHESIS
        and derived.status == DerivedMemory.Status.ACTIVE
    ):
        controls.append("promote")
    return [*controls, "reject", "delete"]


def derived_receipts(principal: User, derived: DerivedMemory) -> QuerySet[Receipt]:
    """The receipts of what the owner did with ``derived``, oldest first."""
    return Receipt.objects.filter(owner=principal, derived=derived).order_by("created_at", "id")


def derived_promotion_statement(principal: User, derived: DerivedMemory) -> str:
    """The memory promoting hypothesis ``derived`` would create unless the owner words it."""
    sources = Belief.objects.filter(
        owner=principal,
        pk__in=Lineage.objects.filter(
            owner=principal, derived=derived, role=Lineage.Role.SOURCE
        ).values_list("belief_id", flat=True),
    )
    return promotion_statement(derived.subject, list(sources))
