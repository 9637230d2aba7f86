from collections import Counter

from django.utils import timezone

from common.principal import principal_context
from memory.models import Belief
from memory.selectors.operations import belief_status_totals
from memory.services.beliefs import belief_correct, belief_delete, belief_reject
from memory.services.erasure import session_erase
from memory.services.expiry import belief_expiry_sweep

from .helpers import conversation, remember


def actual_counts(*principals):
    counts = Counter()
    for principal in principals:
        with principal_context(principal):
            counts.update(Belief.objects.filter(owner=principal).values_list("status", flat=True))
    return counts


def test_the_content_free_counts_follow_every_status_change(owner, other_owner):
    session, (message,) = conversation(owner, "I keep bees.")
    remember(owner, "User keeps bees.", sources=[message])
    corrected = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")
    belief_correct(
        principal=owner, belief_id=corrected.public_id, expected_revision=1, statement="An X5."
    )
    rejected = remember(owner, "User likes jazz.")
    belief_reject(principal=owner, belief_id=rejected.public_id, expected_revision=1)
    deleted = remember(other_owner, "User likes tea.")
    belief_delete(principal=other_owner, belief_id=deleted.public_id, expected_revision=1)
    remember(other_owner, "User has a cold.", expires_at=timezone.now() + timezone.timedelta(1))
    belief_expiry_sweep(now=timezone.now() + timezone.timedelta(2))
    session_erase(principal=owner, session_id=session.public_id)

    totals = belief_status_totals()

    expected = actual_counts(owner, other_owner)
    assert {status: n for status, n in totals.items() if n} == dict(expected)
    assert expected == {"active": 1, "superseded": 1, "rejected": 1, "deleted": 2, "expired": 1}
