"""``belief_mentions``: the owner's live beliefs holding every term, outside one subject."""

from common.principal import principal_context
from memory.search import belief_mentions
from memory.services.beliefs import belief_reject
from tests.memory.helpers import remember


def mentions(owner, terms, exclude_subject="device:apple-watch", limit=10):
    with principal_context(owner):
        return set(
            belief_mentions(
                owner_id=owner.pk, terms=terms, exclude_subject=exclude_subject, limit=limit
            )
        )


def test_beliefs_holding_every_term_outside_the_subject_are_found(owner):
    remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")
    runs = remember(owner, "User runs with the Apple Watch.", subject="topic:running")
    remember(owner, "User ate an apple.", subject="topic:food")
    remember(owner, "User lost a pocket watch.", subject="topic:watches")

    assert mentions(owner, ["apple", "watch"]) == {runs.pk}


def test_only_live_beliefs_of_the_owner_are_found(owner, other_owner):
    rejected = remember(owner, "User runs with the Apple Watch.", subject="topic:running")
    belief_reject(principal=owner, belief_id=rejected.public_id, expected_revision=1)
    remember(other_owner, "User runs with the Apple Watch.", subject="topic:running")

    assert mentions(owner, ["apple", "watch"]) == set()


def test_at_most_the_limit_is_returned(owner):
    for day in ("Monday", "Tuesday", "Friday"):
        remember(owner, f"User ran with the Apple Watch on {day}.", subject="topic:running")

    assert len(mentions(owner, ["apple", "watch"], limit=2)) == 2
