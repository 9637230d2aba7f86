"""The family grammar: what is coming for the owner's relatives, and when."""

from datetime import UTC, datetime

import pytest

from formation.candidates import ExtractionRequest
from formation.extraction import user_message
from formation.extractor import DeterministicExtractor
from memory.enums import BeliefType

# A Wednesday.
NOW = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)


def extract(text):
    message = user_message(id="m1", text=text, occurred_at=NOW)
    return DeterministicExtractor().extract(ExtractionRequest(messages=(message,))).candidates


def events(text):
    return [c for c in extract(text) if c.subject.startswith("event:")]


def test_a_daughters_first_school_day_is_an_event_besides_the_relationship():
    candidates = extract("My daughter Maya starts school in September.")

    assert [(c.type, c.subject, c.statement) for c in candidates] == [
        (BeliefType.RELATIONSHIP, "person:maya", "User has a daughter named Maya."),
        (
            BeliefType.FACT,
            "event:maya-starts-school",
            "User's daughter Maya starts school in September.",
        ),
    ]
    event = candidates[1]
    assert event.temporal.phrase == "in September"
    assert event.temporal.valid_until == datetime(2026, 9, 30, 23, 59, 59, tzinfo=UTC)
    assert event.temporal.expires_at is None


@pytest.mark.parametrize(
    ("text", "statement", "until"),
    [
        (
            "My brother Tom is getting married next June.",
            "User's brother Tom is getting married next June.",
            datetime(2027, 6, 30, 23, 59, 59, tzinfo=UTC),
        ),
        (
            "My wife's surgery is on March 3rd.",
            "User's wife's surgery is on March 3rd.",
            datetime(2027, 3, 3, 23, 59, 59, tzinfo=UTC),
        ),
        (
            "My brother Tom will start college in September.",
            "User's brother Tom will start college in September.",
            datetime(2026, 9, 30, 23, 59, 59, tzinfo=UTC),
        ),
        (
            "On Friday, my mom is having knee surgery.",
            "User's mom is having knee surgery on Friday.",
            datetime(2026, 8, 21, 23, 59, 59, tzinfo=UTC),
        ),
        (
            "My parents are visiting us next weekend.",
            "User's parents are visiting User next weekend.",
            datetime(2026, 8, 30, 23, 59, 59, tzinfo=UTC),
        ),
    ],
)
def test_a_relatives_coming_event_keeps_its_day(text, statement, until):
    (event,) = events(text)

    assert event.statement == statement
    assert event.temporal.valid_until == until


@pytest.mark.parametrize(
    "text",
    [
        "My brother Tom got married last June.",
        "My daughter Maya started school in September.",
        "My daughter Maya starts school.",
        "My brother Tom is not getting married next June after all.",
        "My son Leo is going to love it in June.",
        "My son Leo has soccer practice on Tuesdays.",
        "My friend Priya is getting married in May.",
        "My coworker Dan is getting married next June.",
        "My sister's friend is having surgery on Monday.",
        "Tom's wedding is next June.",
        "My daughter Maya might start school in September.",
        "I hope my brother Tom gets married next June.",
        "If my brother Tom gets married next June, I'll fly over.",
    ],
)
def test_past_undated_denied_hoped_or_non_family_events_form_none(text):
    assert events(text) == []
