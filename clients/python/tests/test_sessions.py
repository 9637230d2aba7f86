"""Sessions, their event logs and runs, through the synchronous client."""

import pytest
from reverie_client import ConflictError, Event, NotFoundError, Run, Session
from support import unique


def test_it_opens_a_session_once_per_external_id(client):
    external_id = unique("chat")
    first = client.session_create(external_id=external_id)
    again = client.session_create(external_id=external_id)
    assert isinstance(first, Session)
    assert again.id == first.id
    assert client.session_get(first.id).external_id == external_id


def test_it_lists_sessions_and_pages_through_them(client):
    made = {client.session_create(external_id=unique("page")).id for _ in range(3)}
    assert made <= {session.id for session in client.session_list(limit=200)}
    first_two = client.session_list(limit=2)
    assert len(first_two) == 2
    seen = [session.id for session in client.iter_sessions(page_size=2)]
    assert made <= set(seen)
    assert len(seen) == len(set(seen))


def test_it_appends_messages_and_reads_the_log_in_order(client):
    session = client.session_create()
    said = client.event_append(session.id, "I just got an Apple Watch.")
    answered = client.event_append(
        session.id,
        [{"type": "text", "text": "Nice!"}],
        type="assistant.message.created",
        author_name="assistant",
    )
    assert isinstance(said, Event)
    assert said.text == "I just got an Apple Watch."
    assert (said.type, answered.type) == ("user.message.created", "assistant.message.created")
    assert answered.sequence > said.sequence
    log = client.event_list(session.id)
    # The first user message flags the conversation for formation, run or no run.
    assert [event.type for event in log] == [
        "user.message.created",
        "memory.formation.requested",
        "assistant.message.created",
    ]
    assert [log[0].id, log[2].id] == [said.id, answered.id]
    assert [e.id for e in client.event_list(session.id, after_sequence=said.sequence)] == [
        log[1].id,
        answered.id,
    ]


def test_a_message_carries_the_label_its_text_implies(client):
    session = client.session_create()
    said = client.event_append(session.id, "My therapist moved us to Friday.")
    plain = client.event_append(session.id, "I bought a blue bike.")
    assert (said.sensitivity, plain.sensitivity) == ("sensitive", "normal")
    assert [
        event.sensitivity
        for event in client.event_list(session.id)
        if event.type == "user.message.created"
    ] == ["sensitive", "normal"]


def test_it_iterates_a_long_log_by_sequence(client):
    session = client.session_create()
    for number in range(5):
        client.event_append(session.id, f"Message number {number}.")
    texts = [event.text for event in client.iter_events(session.id, page_size=2)]
    # The formation flag the first message raised has no text.
    assert texts == ["Message number 0.", ""] + [f"Message number {n}." for n in range(1, 5)]


def test_a_message_with_an_external_id_is_appended_once(client):
    session = client.session_create()
    first = client.event_append(session.id, "Only once.", external_id="msg-1")
    again = client.event_append(session.id, "Only once.", external_id="msg-1")
    assert again.id == first.id
    assert [event.type for event in client.event_list(session.id)] == [
        "user.message.created",
        "memory.formation.requested",
    ]


def test_it_erases_a_message(client):
    session = client.session_create()
    event = client.event_append(session.id, "My neighbour is called Tom.")
    erased = client.event_erase(event.id)
    assert erased.redacted_at is not None
    assert "Tom" not in erased.text


def test_a_run_goes_from_running_to_completed(client):
    session = client.session_create()
    client.event_append(session.id, "I prefer tea to coffee.")
    run = client.run_create(session.id)
    assert isinstance(run, Run)
    assert client.run_get(run.id).status == run.status
    completed = client.run_complete(run.id)
    assert completed.status == "completed"
    assert completed.finished_at is not None
    with pytest.raises(ConflictError) as refused:
        client.run_complete(run.id)
    assert refused.value.details["status"] == "completed"


def test_a_run_can_wait_and_then_fail(client):
    session = client.session_create()
    run = client.run_create(session.id)
    assert client.run_wait(run.id).status == "waiting"
    failed = client.run_fail(run.id, error_code="tool_timeout")
    assert (failed.status, failed.error_code) == ("failed", "tool_timeout")


def test_a_closed_session_takes_no_more_runs(client):
    session = client.session_create()
    closed = client.session_close(session.id)
    assert closed.closed_at is not None
    with pytest.raises(ConflictError):
        client.run_create(session.id)


def test_it_erases_a_session(client):
    session = client.session_create()
    client.event_append(session.id, "Something private.")
    erased = client.session_erase(session.id)
    assert erased.erased_at is not None
    assert all(event.text != "Something private." for event in client.event_list(session.id))


def test_another_owners_session_is_not_found(client, other_client):
    session = other_client.session_create()
    with pytest.raises(NotFoundError):
        client.session_get(session.id)
    with pytest.raises(NotFoundError):
        client.event_append(session.id, "Not mine.")
