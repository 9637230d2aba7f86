"""belief_import: memories stored as another bank held them, checked as belief_remember checks
what it stores."""

import pytest

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import Authority, BeliefStatus
from memory.models import AuditRecord, Belief
from memory.services.beliefs import belief_import

from .helpers import conversation

CLAIM = {
    "statement": "User drinks oat milk.",
    "type": "preference",
    "subject": "food:oat-milk",
    "polarity": "positive",
    "confidence": 0.95,
    "scope": "principal",
    "portability": "portable",
    "sensitivity": "normal",
    "valid_from": None,
    "valid_until": None,
    "expires_at": None,
}


def stored(principal):
    with principal_context(principal):
        return list(Belief.objects.filter(owner=principal).order_by("id"))


def test_an_active_memory_is_explicit_with_its_sources_and_audit(owner):
    _, (message,) = conversation(owner, "I drink oat milk.")

    belief = belief_import(
        principal=owner, status="active", source_event_ids=[message.public_id], **CLAIM
    )

    assert (belief.status, belief.authority, belief.needs_review) == (
        BeliefStatus.ACTIVE,
        Authority.EXPLICIT,
        False,
    )
    assert belief.evidence_at == message.occurred_at
    with principal_context(owner):
        assert [source.event_id for source in belief.sources.all()] == [message.pk]
        actions = list(AuditRecord.objects.filter(belief=belief).values_list("action", flat=True))
    assert actions == ["remembered"]
    assert stored(owner) == [belief]


def test_a_provisional_memory_is_inferred_and_waits_for_review(owner):
    belief = belief_import(principal=owner, status="provisional", **{**CLAIM, "confidence": 0.6})

    assert (belief.status, belief.authority, belief.needs_review, belief.confidence) == (
        BeliefStatus.PROVISIONAL,
        Authority.INFERRED,
        True,
        0.6,
    )


def test_equal_claims_are_stored_side_by_side(owner):
    first = belief_import(principal=owner, status="active", **CLAIM)
    second = belief_import(principal=owner, status="active", **CLAIM)

    assert first.pk != second.pk
    assert [belief.status for belief in stored(owner)] == ["active", "active"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"status": "rejected"}, "status"),
        ({"statement": "My password is hunter2-Secret!"}, "statement"),
        ({"subject": "not a subject"}, "subject"),
        ({"scope": "everyone"}, "scope"),
        ({"sensitivity": "secret"}, "sensitivity"),
    ],
)
def test_what_belief_remember_refuses_is_refused_and_nothing_is_written(owner, fields, field):
    with pytest.raises(ReverieError) as error:
        belief_import(principal=owner, **{"status": "active", **CLAIM, **fields})

    assert (error.value.code, error.value.details["field"]) == ("validation_error", field)
    assert stored(owner) == []
