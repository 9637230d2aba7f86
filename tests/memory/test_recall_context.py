"""A recalled message may carry the turns around it in its conversation, as context."""

from datetime import timedelta

import pytest
from django.utils import timezone

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import EventType, Sensitivity
from memory.models import Event
from memory.reach import Reach
from memory.selectors.recall import recall
from memory.services.beliefs import belief_delete
from memory.services.erasure import event_erase
from memory.services.sessions import system_event_append

from .helpers import conversation, remember, say

QUESTION = "Did you go camping in the end?"


def context_of(item):
    return [(turn.position, turn.text) for turn in item.context]


def one_message(owner, query="camping", **options):
    """The best message for ``query``, alone, with its context."""
    result = recall(principal=owner, query=query, include=["messages"], limit=1, **options)
    (item,) = result.items
    return item


def test_a_message_carries_the_turns_before_and_after_it_in_the_order_they_were_said(owner):
    session, (_, _, question, reply, _) = conversation(
        owner,
        "We spoke of the weather.",
        "The sun was out.",
        QUESTION,
        "Yes, we went to Big Sur.",
        "It rained a lot.",
    )

    item = one_message(owner, context_turns=2)

    assert item.text == QUESTION
    assert context_of(item) == [
        ("before", "We spoke of the weather."),
        ("before", "The sun was out."),
        ("after", "Yes, we went to Big Sur."),
        ("after", "It rained a lot."),
    ]
    after = item.context[2]
    assert (after.id, after.sequence, after.event_type, after.occurred_at) == (
        str(reply.public_id),
        reply.sequence,
        reply.event_type,
        reply.occurred_at,
    )


def test_at_most_the_asked_number_of_turns_is_given_on_each_side(owner):
    conversation(owner, "One.", "Two.", QUESTION, "Three.", "Four.")

    item = one_message(owner, context_turns=1)

    assert context_of(item) == [("before", "Two."), ("after", "Three.")]


def test_without_context_turns_a_message_carries_no_context(owner):
    conversation(owner, "One.", QUESTION, "Two.")

    assert one_message(owner).context == ()


def test_context_never_crosses_into_another_session(owner):
    conversation(owner, "We spoke of the weather.")
    conversation(owner, QUESTION, "Yes, at Big Sur.")
    conversation(owner, "It rained a lot.")

    item = one_message(owner, context_turns=3)

    assert context_of(item) == [("after", "Yes, at Big Sur.")]


def test_another_owners_turns_are_never_context(owner, other_owner):
    _, (question, reply) = conversation(owner, QUESTION, "Yes, at Big Sur.")
    conversation(other_owner, "The alarm code is 4512.", QUESTION, "No, we stayed home.")

    item = one_message(owner, context_turns=3)

    assert item.id == str(question.public_id)
    assert [turn.id for turn in item.context] == [str(reply.public_id)]


def test_turns_between_events_that_are_not_messages_are_context(owner):
    session, _ = conversation(owner, QUESTION)
    system_event_append(
        principal=owner,
        session_id=session.public_id,
        event_type=EventType.FORMATION_REQUESTED,
        payload={},
    )
    say(owner, session, "Yes, at Big Sur.", event_type=EventType.ASSISTANT_MESSAGE)

    item = one_message(owner, context_turns=2)

    assert context_of(item) == [("after", "Yes, at Big Sur.")]
    assert item.context[0].event_type == EventType.ASSISTANT_MESSAGE


def test_a_turn_further_than_three_events_from_the_last_one_is_not_context(owner):
    session, _ = conversation(owner, QUESTION)
    for _ in range(3):
        system_event_append(
            principal=owner,
            session_id=session.public_id,
            event_type=EventType.FORMATION_REQUESTED,
            payload={},
        )
    say(owner, session, "Yes, at Big Sur.")

    assert one_message(owner, context_turns=3).context == ()


def test_erased_fenced_and_hidden_sensitive_turns_are_never_context(owner):
    _, (erased, sensitive, _, fenced, _) = conversation(
        owner,
        "The alarm code is 4512.",
        "My doctor called about the results.",
        QUESTION,
        "Yes, we camped at Big Sur.",
        "It rained a lot.",
    )
    event_erase(principal=owner, event_id=erased.public_id)
    belief = remember(owner, "User camped at Big Sur.", sources=[fenced])
    belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)
    with principal_context(owner):
        Event.objects.filter(pk=sensitive.pk).update(sensitivity=Sensitivity.SENSITIVE)

    kept = one_message(owner, context_turns=3, reach=Reach(include_sensitive=False))
    full = one_message(owner, context_turns=3)

    assert context_of(kept) == [("after", "It rained a lot.")]
    assert context_of(full) == [
        ("before", "My doctor called about the results."),
        ("after", "It rained a lot."),
    ]


def test_a_turn_older_than_since_is_not_context(owner):
    session, _ = conversation(owner)
    now = timezone.now()
    say(owner, session, "We spoke of the weather.", occurred_at=now - timedelta(days=2))
    say(owner, session, QUESTION, occurred_at=now)
    say(owner, session, "Yes, at Big Sur.", occurred_at=now)

    item = one_message(owner, context_turns=2, since=now - timedelta(days=1))

    assert context_of(item) == [("after", "Yes, at Big Sur.")]


def test_a_turn_recalled_as_an_item_is_not_repeated_as_context(owner):
    conversation(owner, QUESTION, "Yes, we went to Big Sur last weekend.")

    result = recall(principal=owner, query="camping", include=["messages"], context_turns=3)

    assert [item.text for item in result.items] == [
        QUESTION,
        "Yes, we went to Big Sur last weekend.",
    ]
    assert all(item.context == () for item in result.items)


def test_a_turn_next_to_two_recalled_messages_is_given_once(owner):
    conversation(
        owner,
        "Did you go camping in the end?",
        "The car broke down.",
        "We walked instead.",
        "So the camping went ahead after all?",
    )

    result = recall(
        principal=owner, query="camping", include=["messages"], limit=2, context_turns=2
    )

    items = {item.id for item in result.items}
    given = [turn.id for item in result.items for turn in item.context]
    assert [item.text for item in result.items if "camping" not in item.text] == []
    assert sorted(turn.text for item in result.items for turn in item.context) == [
        "The car broke down.",
        "We walked instead.",
    ]
    assert len(given) == len(set(given)) and not items & set(given)


def test_context_text_counts_in_the_budget_nearest_turns_first(owner):
    conversation(
        owner, "Weather.", "The sun was out.", QUESTION, "Yes, Big Sur.", "It rained a lot."
    )
    # The message, both nearest turns and the nearer of the two turns left.
    budget = len(QUESTION) + len("The sun was out.") + len("Yes, Big Sur.") + len("Weather.")

    result = recall(
        principal=owner,
        query="camping",
        include=["messages"],
        limit=1,
        context_turns=2,
        budget_chars=budget,
    )

    (item,) = result.items
    assert context_of(item) == [
        ("before", "Weather."),
        ("before", "The sun was out."),
        ("after", "Yes, Big Sur."),
    ]
    assert result.chars == budget
    assert result.truncated


def test_a_turn_past_one_that_did_not_fit_is_not_given(owner):
    conversation(owner, "Hi.", "The sun was out all day long.", QUESTION, "Yes.", "Rain.")
    budget = len(QUESTION) + len("Yes.") + len("Rain.") + len("Hi.")

    result = recall(
        principal=owner,
        query="camping",
        include=["messages"],
        limit=1,
        context_turns=2,
        budget_chars=budget,
    )

    (item,) = result.items
    # "Hi." would fit, but not without the turn between it and the message.
    assert context_of(item) == [("after", "Yes."), ("after", "Rain.")]
    assert result.chars == budget - len("Hi.")
    assert result.truncated


def test_context_only_takes_what_budget_the_recalled_items_leave(owner):
    conversation(owner, "Some words before it.", QUESTION, "Yes, we went to Big Sur.")
    conversation(owner, "Camping gear for sale.")
    budget = len(QUESTION) + len("Camping gear for sale.")

    plain = recall(
        principal=owner, query="camping", include=["messages"], limit=2, budget_chars=budget
    )
    with_context = recall(
        principal=owner,
        query="camping",
        include=["messages"],
        limit=2,
        budget_chars=budget,
        context_turns=1,
    )

    assert [(i.id, i.rank, i.score) for i in with_context.items] == [
        (i.id, i.rank, i.score) for i in plain.items
    ]
    assert all(item.context == () for item in with_context.items)
    assert with_context.chars == plain.chars
    assert with_context.truncated


def test_context_changes_neither_which_items_are_recalled_nor_their_order(owner):
    conversation(owner, "The kayak trip is on.", "We packed everything.", "The kayak was red.")
    conversation(owner, "Something long about a kayak trip that went on for a long while.")
    conversation(
        owner,
        "We spoke of the weather.",
        "It was sunny.",
        "A kayak?",
        "Yes, a kayak.",
        "Fine.",
        "Bye.",
    )
    remember(owner, "User owns a red kayak.")

    plain = recall(principal=owner, query="kayak trip", include=["messages"])
    with_context = recall(
        principal=owner, query="kayak trip", include=["messages"], context_turns=3
    )

    assert [(i.kind, i.id, i.rank, i.score) for i in with_context.items] == [
        (i.kind, i.id, i.rank, i.score) for i in plain.items
    ]
    assert any(item.context for item in with_context.items)
    assert with_context.chars == plain.chars + sum(
        len(turn.text) for item in with_context.items for turn in item.context
    )


def test_only_messages_carry_context(owner):
    conversation(owner, "We went shopping.", "I bought a kayak.", "It is red.")
    remember(owner, "User owns a kayak.")

    result = recall(principal=owner, query="kayak", include=["messages"], limit=2, context_turns=1)

    belief, message = sorted(result.items, key=lambda item: item.kind)
    assert (belief.kind, belief.context) == ("belief", ())
    assert context_of(message) == [("before", "We went shopping."), ("after", "It is red.")]


def test_a_secret_in_a_context_turn_is_masked(owner):
    conversation(owner, "The password for my email is hunter2.", QUESTION)

    item = one_message(owner, context_turns=1)

    (turn,) = item.context
    assert "hunter2" not in turn.text and "[redacted]" in turn.text


@pytest.mark.parametrize("context_turns", [-1, 4, "1", True, 1.5])
def test_context_turns_must_be_a_whole_number_from_0_to_3(owner, context_turns):
    with pytest.raises(ReverieError) as refused:
        recall(principal=owner, query="x", context_turns=context_turns)

    assert refused.value.code == "validation_error"
    assert refused.value.details["field"] == "context_turns"
