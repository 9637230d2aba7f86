"""The conversation helper: a turn appends the message, runs, and asks for formation."""

import pytest
from reverie_client import Recorded
from support import unique


def test_a_turn_recalls_replies_and_completes_its_run_and_formation_follows(client, service):
    conversation = client.conversation(unique("chat"))
    with conversation.turn("I just got a Brompton folding bike.") as turn:
        before = turn.recall()
        reply = turn.reply("Great for commuting!")
    assert turn.run is not None and turn.run.status == "completed"
    assert turn.message is not None and turn.message.type == "user.message.created"
    assert reply.type == "assistant.message.created"
    assert "Brompton" not in {item.text for item in before.items}

    log = [event.type for event in client.iter_events(conversation.session.id)]
    messages = [kind for kind in log if kind.endswith(".message.created")]
    assert messages == ["user.message.created", "assistant.message.created"]
    assert "run.completed" in log
    assert "memory.formation.requested" in log

    # What the worker's schedule does in the background, now.
    service.run_maintenance()
    found = client.recall("which bike do I have?")
    formed = [item for item in found.items if item.kind == "belief" and "Brompton" in item.text]
    assert formed and formed[0].status == "provisional"
    assert formed[0].sources[0].session_id == conversation.session.id


def test_a_turn_that_raises_fails_its_run(client):
    conversation = client.conversation(unique("chat"))
    with pytest.raises(RuntimeError), conversation.turn("What's the weather?") as turn:
        raise RuntimeError("the model timed out")
    assert turn.run is not None
    assert (turn.run.status, turn.run.error_code) == ("failed", "RuntimeError")


def test_a_conversation_is_found_again_by_its_id(client):
    external_id = unique("chat")
    first = client.conversation(external_id).record("I live in Porto.", reply="Lovely city.")
    assert isinstance(first, Recorded)
    assert first.reply is not None and first.run.status == "completed"
    again = client.conversation(external_id)
    assert again.session.id == first.session.id
    by_id = client.conversation(session_id=first.session.id)
    second = by_id.record("I moved there last year.")
    assert second.reply is None
    assert second.message.sequence > first.reply.sequence
    assert by_id.close().closed_at is not None
