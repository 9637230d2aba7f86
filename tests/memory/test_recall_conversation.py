"""Recall reads a conversation as a conversation: a turn next to a match may answer it."""

from datetime import timedelta

from django.utils import timezone

from common.principal import principal_context
from memory.enums import EventType, Sensitivity
from memory.models import Event
from memory.reach import Reach
from memory.selectors.conversation import conversation_ranked
from memory.selectors.recall import recall
from memory.services.beliefs import belief_delete
from memory.services.erasure import event_erase
from memory.services.sessions import system_event_append

from .helpers import conversation, remember, say


def texts(result):
    return [item.text for item in result.items]


def camping(owner, **session_fields):
    return conversation(
        owner,
        "Did you go camping in the end?",
        "Yes, we went to Big Sur last weekend.",
        **session_fields,
    )


def test_the_turn_after_a_matching_question_is_recalled_though_it_shares_no_word(owner):
    camping(owner)

    result = recall(principal=owner, query="camping", include=["messages"])

    assert texts(result) == [
        "Did you go camping in the end?",
        "Yes, we went to Big Sur last weekend.",
    ]


def test_a_turn_between_two_matches_outranks_a_lone_match_of_the_same_words(owner):
    conversation(
        owner, "The kayak trip is on.", "We packed everything.", "The kayak trip was great."
    )
    conversation(owner, "Something long about a kayak trip that went on for a long while.")

    result = recall(principal=owner, query="kayak trip", include=["messages"])

    assert texts(result).index("We packed everything.") < texts(result).index(
        "Something long about a kayak trip that went on for a long while."
    )


def test_the_nearest_turn_is_found_across_events_that_are_not_messages(owner):
    session, _ = conversation(owner, "Did you go camping in the end?")
    system_event_append(
        principal=owner,
        session_id=session.public_id,
        event_type=EventType.FORMATION_REQUESTED,
        payload={},
    )
    say(owner, session, "Yes, at Big Sur.", event_type=EventType.ASSISTANT_MESSAGE)

    result = recall(principal=owner, query="camping", include=["messages"])

    assert texts(result) == ["Did you go camping in the end?", "Yes, at Big Sur."]


def test_turns_of_other_sessions_and_other_owners_are_not_neighbours(owner, other_owner):
    conversation(owner, "Did you go camping in the end?")
    conversation(owner, "Yes, we went to Big Sur last weekend.")
    camping(other_owner)

    result = recall(principal=owner, query="camping", include=["messages"])

    assert texts(result) == ["Did you go camping in the end?"]


def test_erased_and_fenced_turns_are_never_neighbours(owner):
    _, (before, question, after) = conversation(
        owner, "The alarm code is 4512.", "Did you go camping in the end?", "Yes, at Big Sur."
    )
    event_erase(principal=owner, event_id=before.public_id)
    belief = remember(owner, "User camped at Big Sur.", sources=[after])
    belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

    result = recall(principal=owner, query="camping", include=["messages"])

    assert texts(result) == ["Did you go camping in the end?"]


def test_a_sensitive_turn_is_no_neighbour_for_a_reach_kept_from_sensitive_things(owner):
    _, (_, answer) = camping(owner)
    with principal_context(owner):
        Event.objects.filter(pk=answer.pk).update(sensitivity=Sensitivity.SENSITIVE)

    kept = recall(
        principal=owner,
        query="camping",
        include=["messages"],
        reach=Reach(include_sensitive=False),
    )
    full = recall(principal=owner, query="camping", include=["messages"])

    assert texts(kept) == ["Did you go camping in the end?"]
    assert len(full.items) == 2


def test_a_turn_older_than_since_is_no_neighbour(owner):
    session, _ = conversation(owner)
    now = timezone.now()
    say(owner, session, "Yes, we went to Big Sur.", occurred_at=now - timedelta(days=2))
    say(owner, session, "Did you go camping again?", occurred_at=now)

    result = recall(
        principal=owner, query="camping", include=["messages"], since=now - timedelta(days=1)
    )

    assert texts(result) == ["Did you go camping again?"]


def test_ranking_follows_places_in_the_search_not_its_scores():
    turns = {1: (None, 3), 2: (None, None)}

    ranked = conversation_ranked([(1, 10.0), (2, 9.0)], turns)
    # Scored by BM25 itself, turn 3 (half of turn 1's 30) would outrank turn 2.
    rescaled = conversation_ranked([(1, 30.0), (2, 9.0)], turns)

    assert [row for row, _ in ranked] == [row for row, _ in rescaled] == [1, 2, 3]


def test_turns_far_weaker_than_the_best_are_left_out():
    ranked = conversation_ranked([(1, 10.0), (2, 2.0)], {1: (None, None), 2: (None, None)})

    assert [row for row, _ in ranked] == [1]
