"""The owner's actions on derived memories: originals never change; rejection suppresses."""

import pytest

from common.principal import principal_context
from core.errors import ReverieError
from memory.models import Belief
from reconsolidation.models import DerivedMemory, Operation, Suppression
from reconsolidation.services.owner_actions import (
    derived_delete,
    derived_reject,
    derived_restrict,
    derived_review,
)
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import remember


def merged(owner, *statements):
    for statement in statements or ("User owns a Kindle.", "user owns kindle"):
        remember(owner, statement, subject="device:kindle", type="ownership")
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        return DerivedMemory.objects.get(owner=owner, status="active")


def originals(owner):
    with principal_context(owner):
        return list(
            Belief.objects.filter(owner=owner)
            .order_by("id")
            .values("status", "revision", "statement", "confidence")
        )


def test_review_changes_only_the_review_state(owner):
    derived = merged(owner)
    before = originals(owner)

    reviewed = derived_review(principal=owner, derived_id=derived.public_id, expected_revision=1)

    assert (reviewed.review_state, reviewed.status, reviewed.revision) == ("reviewed", "active", 2)
    assert reviewed.statement == derived.statement
    assert originals(owner) == before


def test_restriction_hides_it_and_can_be_lifted(owner):
    derived = merged(owner)

    restricted = derived_restrict(
        principal=owner, derived_id=derived.public_id, expected_revision=1
    )
    lifted = derived_restrict(
        principal=owner, derived_id=derived.public_id, expected_revision=2, restricted=False
    )

    assert (restricted.restricted, lifted.restricted) == (True, False)


@pytest.mark.parametrize("action", [derived_reject, derived_delete])
def test_rejection_and_deletion_erase_the_copy_and_suppress_the_claim(owner, action):
    derived = merged(owner)
    before = originals(owner)

    dismissed = action(principal=owner, derived_id=derived.public_id, expected_revision=1)

    assert dismissed.status in ("rejected", "deleted")
    assert (dismissed.statement, dismissed.subject) == ("", "")
    assert originals(owner) == before
    with principal_context(owner):
        assert Suppression.objects.filter(owner=owner).count() == 1
        assert Operation.objects.get().state == "invalidated"
    # A new restatement of the same claim is not merged again.
    remember(owner, "User owns the Kindle!", subject="device:kindle", type="ownership")
    report = reconsolidation_pass(principal=owner)
    assert report.outcomes == {"suppressed": 1}
    with principal_context(owner):
        assert not DerivedMemory.objects.filter(status="active").exists()


def test_a_stale_revision_is_a_conflict_and_changes_nothing(owner):
    derived = merged(owner)
    derived_review(principal=owner, derived_id=derived.public_id, expected_revision=1)

    with pytest.raises(ReverieError) as error:
        derived_reject(principal=owner, derived_id=derived.public_id, expected_revision=1)

    assert (error.value.code, error.value.details["current_revision"]) == ("conflict", 2)
    with principal_context(owner):
        assert DerivedMemory.objects.get().status == "active"
        assert not Suppression.objects.exists()


def test_another_principals_derived_memory_is_not_found(owner, other_owner):
    derived = merged(owner)

    for action in (derived_review, derived_restrict, derived_reject, derived_delete):
        with pytest.raises(ReverieError) as error:
            action(principal=other_owner, derived_id=derived.public_id, expected_revision=1)
        assert error.value.code == "not_found"
    with principal_context(owner):
        assert DerivedMemory.objects.get().revision == 1
