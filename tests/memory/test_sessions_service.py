import threading
from datetime import UTC, datetime

import pytest
from django.db import connection

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import EventType
from memory.models import Event, Session
from memory.selectors.sessions import event_list
from memory.services.sessions import event_append, session_close, session_create

from .helpers import say


def events_of(principal, session):
    with principal_context(principal):
        return list(event_list(principal=principal, session_id=session.public_id))


def test_a_session_starts_open_with_an_empty_log(owner):
    session = session_create(principal=owner)

    assert session.closed_at is None
    assert events_of(owner, session) == []


def test_a_session_with_the_same_external_id_is_returned_again(owner):
    first = session_create(principal=owner, external_id="chat-1")
    again = session_create(principal=owner, external_id="chat-1")

    assert again.pk == first.pk


def test_it_refuses_a_malformed_scope(owner):
    with pytest.raises(ReverieError) as error:
        session_create(principal=owner, scope="everyone")

    assert error.value.code == "validation_error"
    with principal_context(owner):
        assert not Session.objects.filter(owner=owner).exists()


def test_appended_messages_get_increasing_sequences_after_one_formation_flag(owner):
    session = session_create(principal=owner)

    events = [say(owner, session, f"message {n}") for n in range(3)]

    assert [e.sequence for e in events] == [1, 3, 4]
    log = events_of(owner, session)
    assert [e.event_type for e in log] == [
        EventType.USER_MESSAGE,
        EventType.FORMATION_REQUESTED,
        EventType.USER_MESSAGE,
        EventType.USER_MESSAGE,
    ]
    assert [e.text for e in log] == ["message 0", "", "message 1", "message 2"]


def test_a_message_keeps_its_parts_and_joined_text(owner):
    session = session_create(principal=owner)

    event = event_append(
        principal=owner,
        session_id=session.public_id,
        event_type=EventType.USER_MESSAGE,
        parts=[{"type": "text", "text": "Look at this"}, {"type": "caption", "text": "a red kite"}],
        occurred_at=datetime(2023, 5, 8, 13, 56, tzinfo=UTC),
    )

    assert event.parts[1] == {"type": "caption", "text": "a red kite"}
    assert event.text == "Look at this\na red kite"
    assert event.author_kind == "principal"
    assert event.occurred_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_a_replayed_external_id_returns_the_original_event(owner):
    session = session_create(principal=owner)
    first = say(owner, session, "hello", external_id="m-1")

    log = events_of(owner, session)
    again = say(owner, session, "hello", external_id="m-1")

    assert again.pk == first.pk
    assert events_of(owner, session) == log


def test_a_different_message_under_a_used_external_id_is_a_conflict(owner):
    session = session_create(principal=owner)
    say(owner, session, "hello", external_id="m-1")
    log = events_of(owner, session)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "something else", external_id="m-1")

    assert error.value.code == "conflict"
    assert events_of(owner, session) == log


@pytest.mark.parametrize(
    ("parts", "field"),
    [
        ([], "parts"),
        ("hello", "parts"),
        ([{"type": "text", "text": "   "}], "parts"),
        (["hello"], "parts[0]"),
        ([{"type": "image", "text": "x"}], "parts[0].type"),
        ([{"type": "text", "text": 5}], "parts[0].text"),
        ([{"type": "text", "text": "x", "html": "<b>"}], "parts[0]"),
    ],
)
def test_malformed_parts_are_refused_and_nothing_is_written(owner, parts, field):
    session = session_create(principal=owner)

    with pytest.raises(ReverieError) as error:
        event_append(
            principal=owner,
            session_id=session.public_id,
            event_type=EventType.USER_MESSAGE,
            parts=parts,
        )

    assert (error.value.code, error.value.details["field"]) == ("validation_error", field)
    assert events_of(owner, session) == []


def test_an_oversized_message_is_refused_as_too_large(owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "event_max_bytes": 100}
    session = session_create(principal=owner)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "é" * 51)  # 102 bytes

    assert error.value.code == "payload_too_large"
    assert error.value.details["limit"] == 100
    assert events_of(owner, session) == []


def test_the_default_size_limit_is_64_kib(owner):
    session = session_create(principal=owner)
    say(owner, session, "x" * 64 * 1024)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "x" * (64 * 1024 + 1))

    assert error.value.code == "payload_too_large"


@pytest.mark.parametrize(
    "event_type",
    [
        EventType.RUN_COMPLETED,
        EventType.FORMATION_REQUESTED,
        EventType.SESSION_CLOSED,
        "chat",
        ["user.message.created"],
    ],
)
def test_callers_cannot_append_system_events(owner, event_type):
    session = session_create(principal=owner)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "forged", event_type=event_type)

    assert error.value.code == "validation_error"
    assert events_of(owner, session) == []


@pytest.mark.parametrize("occurred_at", [datetime(2023, 1, 1), "2023-01-01T00:00:00Z", 1672531200])
def test_a_naive_or_untyped_timestamp_is_refused(owner, occurred_at):
    session = session_create(principal=owner)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "hello", occurred_at=occurred_at)

    assert error.value.details["field"] == "occurred_at"


def test_closing_logs_it_once_and_flags_the_session_for_formation_at_once(owner):
    session = session_create(principal=owner)
    say(owner, session, "bye")

    session_close(principal=owner, session_id=session.public_id)
    closed = session_close(principal=owner, session_id=session.public_id)

    assert closed.closed_at is not None
    events = events_of(owner, session)
    assert [e.event_type for e in events] == [
        EventType.USER_MESSAGE,
        EventType.FORMATION_REQUESTED,  # the message's own, due after the idle window
        EventType.SESSION_CLOSED,
        EventType.FORMATION_REQUESTED,
    ]
    assert events[-1].payload["reason"] == "session_closed"
    assert events[-1].payload["not_before"] == closed.closed_at.isoformat()


def test_a_closed_session_takes_no_more_messages(owner):
    session = session_create(principal=owner)
    session_close(principal=owner, session_id=session.public_id)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "hello?")

    assert error.value.code == "conflict"


def test_appending_to_another_owners_session_is_not_found(owner, other_owner):
    theirs = session_create(principal=other_owner)

    with pytest.raises(ReverieError) as error:
        say(owner, theirs, "intrusion")

    assert error.value.code == "not_found"
    assert events_of(other_owner, theirs) == []


def test_a_malformed_session_id_is_a_validation_error(owner):
    with pytest.raises(ReverieError) as error:
        session_close(principal=owner, session_id="not-a-uuid")

    assert error.value.code == "validation_error"


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_keep_the_sequence_gapless(owner):
    session = session_create(principal=owner)
    errors = []

    def append_many(worker):
        try:
            for n in range(10):
                say(owner, session, f"worker {worker} message {n}")
        except Exception as error:  # collected and asserted below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=append_many, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    with principal_context(owner):
        sequences = list(
            Event.objects.filter(session=session)
            .order_by("sequence")
            .values_list("sequence", "event_type")
        )
        last_sequence = Session.objects.get(pk=session.pk).last_sequence
    # 40 messages and the one formation flag the first of them raised.
    assert [sequence for sequence, _ in sequences] == list(range(1, 42))
    assert [kind for _, kind in sequences].count(EventType.FORMATION_REQUESTED) == 1
    assert last_sequence == 41
