"""A token kept from sensitive things reads no message labelled sensitive through the API:
not in recall, not in a session's messages, not as a memory's source, and naming one
answers as naming a missing one does. A token of full reach sees them, with the label."""

import json
import uuid

import pytest

from common.principal import principal_context
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Event
from tests.memory.helpers import conversation, remember

from .helpers import error_of
from .test_token_narrowing import token_client

API = "/api/v1"
SENSITIVE = "My therapist says the anxiety will ease by spring."
ORDINARY = "I bought a blue bike for the spring."


@pytest.fixture
def talk(owner):
    session, (sensitive, ordinary) = conversation(owner, SENSITIVE, ORDINARY)
    memory = remember(owner, "User is hopeful about the season.", sources=[sensitive, ordinary])
    return {"session": session, "sensitive": sensitive, "ordinary": ordinary, "memory": memory}


def reads(api, talk):
    """Every read of the API that may carry the conversation's messages."""
    memory = f"{API}/memories/{talk['memory'].public_id}"

    def recall(query):
        body = {"query": query, "include": ["messages"]}
        return api.post(f"{API}/recall", body, format="json").json()

    return {
        # The messages, then the memory with its sources: recall gives a message once,
        # as itself or as the source of a memory found with it.
        "recall": recall("spring"),
        "recalled memory": recall("hopeful"),
        "events": [
            event
            for event in api.get(f"{API}/sessions/{talk['session'].public_id}/events").json()
            if event["type"] in MESSAGE_EVENT_TYPES  # not the formation flag
        ],
        "memory": api.get(memory).json(),
        "memories": api.get(f"{API}/memories").json(),
        "history": api.get(f"{memory}/history").json(),
    }


def message_ids(body):
    return sorted(item["id"] for item in body["items"] if item["kind"] == "message")


def source_ids(memory):
    return [source["event_id"] for source in memory["sources"]]


def test_a_token_kept_from_sensitive_things_reads_no_sensitive_message_anywhere(owner, talk):
    discreet = token_client(owner, include_sensitive=False)

    seen = reads(discreet, talk)

    ordinary = str(talk["ordinary"].public_id)
    assert message_ids(seen["recall"]) == [ordinary]
    assert [(e["id"], e["sensitivity"]) for e in seen["events"]] == [(ordinary, "normal")]
    (recalled_memory,) = seen["recalled memory"]["items"]
    assert source_ids(recalled_memory) == [ordinary]
    assert source_ids(seen["memory"]) == [ordinary]
    assert [source_ids(m) for m in seen["memories"]["results"]] == [[ordinary]]
    assert [source_ids(v) for v in seen["history"]["versions"]] == [[ordinary]]
    for body in seen.values():
        assert str(talk["sensitive"].public_id) not in json.dumps(body)
        assert "therapist" not in json.dumps(body)


def test_a_full_token_reads_every_message_with_its_label(owner, talk):
    full = token_client(owner)

    seen = reads(full, talk)

    both = [str(talk["sensitive"].public_id), str(talk["ordinary"].public_id)]
    assert message_ids(seen["recall"]) == sorted(both)
    assert [(e["id"], e["sensitivity"]) for e in seen["events"]] == list(
        zip(both, ["sensitive", "normal"], strict=True)
    )
    assert source_ids(seen["memory"]) == both
    assert [source_ids(item) for item in seen["recalled memory"]["items"]] == [both]


def test_naming_a_sensitive_message_answers_as_naming_a_missing_one(owner, talk):
    discreet = token_client(owner, include_sensitive=False)
    hidden, missing = str(talk["sensitive"].public_id), str(uuid.uuid4())

    def answers(event_id):
        remembered = discreet.post(
            f"{API}/memories",
            {"statement": "User keeps a weekly appointment.", "source_event_ids": [event_id]},
            format="json",
        )
        erased = discreet.post(f"{API}/events/{event_id}/erase")
        return [
            (r.status_code, error_of(r), json.dumps(r.json()["error"]["details"]))
            for r in (remembered, erased)
        ]

    assert answers(hidden) == [
        (status, code, details.replace(missing, hidden))
        for status, code, details in answers(missing)
    ]
    assert [a[:2] for a in answers(hidden)] == [(404, "not_found")] * 2
    with principal_context(owner):
        assert Event.objects.get(pk=talk["sensitive"].pk).text == SENSITIVE


def test_such_a_token_may_append_a_sensitive_message_and_its_retry_finds_it(owner):
    discreet = token_client(owner, include_sensitive=False)
    session = discreet.post(f"{API}/sessions", {}, format="json").json()
    append = (
        f"{API}/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": SENSITIVE}]},
    )

    first = discreet.post(*append, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    retry = discreet.post(*append, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert (first.status_code, retry.status_code, retry["Idempotent-Replayed"]) == (
        201,
        201,
        "true",
    )
    assert first.json() == retry.json()
    assert first.json()["sensitivity"] == "sensitive"
    listed = discreet.get(f"{API}/sessions/{session['id']}/events").json()
    # Not the message: only the formation flag it raised, which holds no text.
    assert [(e["type"], e["parts"]) for e in listed] == [("memory.formation.requested", [])]
