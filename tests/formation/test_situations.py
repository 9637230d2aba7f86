"""The situations grammar: where the owner is, or what they do, for a stated time."""

from datetime import UTC, datetime, timedelta

import pytest

from formation.candidates import ExtractionRequest
from formation.extraction import user_message
from formation.extractor import DeterministicExtractor
from memory.enums import BeliefType, EventType

# A Wednesday.
NOW = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)


def extract(text, *, event_type=EventType.USER_MESSAGE):
    message = user_message(id="m1", text=text, occurred_at=NOW, event_type=event_type)
    return DeterministicExtractor().extract(ExtractionRequest(messages=(message,))).candidates


def situations(text):
    return [c for c in extract(text) if c.subject.startswith("situation:")]


def test_a_stay_for_two_weeks_expires_two_weeks_after_the_message():
    (candidate,) = situations("I'm staying in Berlin for two weeks.")

    assert candidate.type == BeliefType.FACT
    assert (candidate.subject, candidate.statement) == (
        "situation:berlin",
        "User is staying in Berlin.",
    )
    assert candidate.temporal.valid_until == NOW + timedelta(days=14)
    assert candidate.temporal.expires_at == NOW + timedelta(days=14)


def test_until_a_day_of_the_month_ends_with_that_day():
    (candidate,) = situations("We're in Lisbon until the 14th.")

    end = datetime(2026, 9, 14, 23, 59, 59, tzinfo=UTC)
    assert candidate.statement == "User is in Lisbon."
    assert (candidate.temporal.valid_until, candidate.temporal.expires_at) == (end, end)


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        (
            "I'll be working from home for the next month.",
            "situation:working-home",
            "User is working from home.",
        ),
        (
            "I'm on a night-shift rotation for three weeks.",
            "situation:night-shift-rotation",
            "User is on a night-shift rotation.",
        ),
        ("I'm off work for two weeks.", "situation:off-work", "User is off work."),
        (
            "I'm staying with my sister in Madrid until Sunday.",
            "situation:madrid",
            "User is staying with their sister in Madrid.",
        ),
    ],
)
def test_a_situation_is_said_in_the_owners_words_and_keyed_by_its_place(text, subject, statement):
    (candidate,) = situations(text)

    assert (candidate.subject, candidate.statement) == (subject, statement)
    assert candidate.temporal.expires_at is not None


def test_a_relative_the_stay_is_with_does_not_expire_with_it():
    (relationship,) = [
        c
        for c in extract("I'm staying with my sister until Sunday.")
        if c.type == BeliefType.RELATIONSHIP
    ]

    assert relationship.statement == "User has a sister."
    assert relationship.temporal.valid_until is None
    assert relationship.temporal.expires_at is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm staying in Berlin for two weeks in October.",
        "I'm staying in Berlin for two weeks every summer.",
        "I've been staying in Berlin for two weeks.",
        "I stayed in Berlin for two weeks.",
        "I'm on the phone for an hour.",
        "I'm in a meeting until 3.",
        "I'm staying in Berlin for a while.",
        "I might be staying in Berlin for two weeks.",
        "I'll probably be in Lisbon until the 14th.",
        "I won't be in Lisbon until the 14th.",
        "I'm not staying in Berlin for two weeks after all.",
        "My coworker is staying in Berlin for two weeks.",
        "I'm here for two weeks.",
    ],
)
def test_a_time_the_message_does_not_anchor_or_a_situation_not_stated_forms_none(text):
    assert situations(text) == []


def test_the_assistant_saying_where_the_owner_stays_forms_nothing():
    text = "You're staying in Berlin for two weeks."
    assert extract(text, event_type=EventType.ASSISTANT_MESSAGE) == ()
