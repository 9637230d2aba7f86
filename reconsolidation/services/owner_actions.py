"""What the owner does with a derived memory. Originals are never changed by any of these.

Every action names the revision the owner saw; a derived memory changed
meanwhile is a conflict and nothing happens. Rejecting or deleting erases the
derived memory's copy of its sources' text and records a suppression
fingerprint, so that reconsolidation never derives the same claim again.
"""

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import conflict, not_found, validation_error
from core.ids import parse_public_id
from memory.services.vectors import vectors_forget
from reconsolidation.models import DerivedMemory, Operation, SummaryClaim, Suppression
from reconsolidation.search import DERIVED_MEMORIES


def expected_revision_check(expected_revision: object) -> None:
    """Refuse an ``expected_revision`` that is not an integer."""
    if isinstance(expected_revision, bool) or not isinstance(expected_revision, int):
        raise validation_error("expected_revision must be an integer.", field="expected_revision")


def suppress(principal: User, fingerprint: str, reason: str) -> None:
    """Never derive the claim with this fingerprint again; the first reason recorded stays."""
    if fingerprint:
        Suppression.objects.get_or_create(
            owner=principal, fingerprint=fingerprint, defaults={"reason": reason}
        )


def erase_generated_copies(principal: User, derived: DerivedMemory) -> None:
    """Erase the source text ``derived`` copied, its summary claims' included.

    The caller saves ``derived``; the claims are updated here.
    """
    derived.statement = derived.subject = ""
    SummaryClaim.objects.filter(owner=principal, derived=derived).update(statement="")
    vectors_forget(
        owner_id=principal.pk, collection=DERIVED_MEMORIES.statistics, row_ids=[derived.pk]
    )


def derived_for_update(
    principal: User, derived_id: object, expected_revision: object, *, kind: str | None = None
) -> DerivedMemory:
    """The principal's derived memory (of ``kind``, if given), locked, at
    ``expected_revision``: another owner's answers like a missing one."""
    expected_revision_check(expected_revision)
    candidates = DerivedMemory.objects.select_for_update().filter(
        owner=principal, public_id=parse_public_id(derived_id, "derived_id")
    )
    if kind is not None:
        candidates = candidates.filter(kind=kind)
    derived = candidates.first()
    noun = kind.replace("_", " ") if kind else "derived memory"
    if derived is None:
        raise not_found(noun)
    if derived.revision != expected_revision:
        raise conflict(
            f"The {noun} has changed since you read it.",
            field="expected_revision",
            current_revision=derived.revision,
        )
    return derived


def _save(derived: DerivedMemory, *fields: str) -> DerivedMemory:
    derived.revision += 1
    derived.save(update_fields=[*fields, "revision", "updated_at"])
    return derived


def derived_review(
    *, principal: User, derived_id: object, expected_revision: object
) -> DerivedMemory:
    """The owner has looked at it: only its review state changes."""
    with principal_transaction(principal):
        derived = derived_for_update(principal, derived_id, expected_revision)
        derived.review_state = DerivedMemory.Review.REVIEWED
        return _save(derived, "review_state")


def derived_restrict(
    *, principal: User, derived_id: object, expected_revision: object, restricted: object = True
) -> DerivedMemory:
    """Hide it from recall and history reads (or show it again); nothing else changes."""
    if not isinstance(restricted, bool):
        raise validation_error("restricted must be true or false.", field="restricted")
    with principal_transaction(principal):
        derived = derived_for_update(principal, derived_id, expected_revision)
        derived.restricted = restricted
        return _save(derived, "restricted")


def _dismiss(
    principal: User, derived_id: object, expected_revision: object, status: str
) -> DerivedMemory:
    with principal_transaction(principal):
        derived = derived_for_update(principal, derived_id, expected_revision)
        if derived.status in (DerivedMemory.Status.REJECTED, DerivedMemory.Status.DELETED):
            raise conflict(f"The derived memory is already {derived.status}.")
        suppress(principal, derived.fingerprint, status)
        # Each claim of a summary is suppressed on its own, so that none of them
        # comes back in a later summary of the same subject.
        for fingerprint in SummaryClaim.objects.filter(
            owner=principal, derived=derived
        ).values_list("fingerprint", flat=True):
            suppress(principal, fingerprint, status)
        Operation.objects.filter(
            owner=principal, pk=derived.operation_id, state=Operation.State.APPLIED
        ).update(
            state=Operation.State.INVALIDATED,
            invalidation_reason=f"owner_{status}",
            revision=F("revision") + 1,
            updated_at=timezone.now(),
        )
        derived.status = status
        erase_generated_copies(principal, derived)
        return _save(derived, "status", "statement", "subject")


def derived_reject(
    *, principal: User, derived_id: object, expected_revision: object
) -> DerivedMemory:
    """Not so: erase its copied text and never derive the same claim again."""
    return _dismiss(principal, derived_id, expected_revision, DerivedMemory.Status.REJECTED)


def derived_delete(
    *, principal: User, derived_id: object, expected_revision: object
) -> DerivedMemory:
    """Remove it: erase its copied text and never derive the same claim again."""
    return _dismiss(principal, derived_id, expected_revision, DerivedMemory.Status.DELETED)
