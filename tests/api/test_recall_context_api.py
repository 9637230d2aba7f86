"""``context_turns`` through the API: each message comes with the turns around it, marked
as context, recorded as read, and never one the token could not read as a message."""

import pytest

from common.principal import principal_context
from memory.api.serializers import RecallContextOutput, RecallItemOutput, RecallSourceOutput
from memory.enums import Sensitivity
from memory.models import AccessRecord, Event
from tests.memory.helpers import conversation, remember

from .helpers import error_of
from .test_token_narrowing import token_client

API = "/api/v1"
QUESTION = "Did you go camping in the end?"


@pytest.fixture
def talk(owner):
    return conversation(
        owner, "We spoke of the weather.", "The sun was out.", QUESTION, "Yes, at Big Sur."
    )[1]


def recall(api, **options):
    body = {"query": "camping", "include": ["messages"], "limit": 1, **options}
    response = api.post(f"{API}/recall", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_message_comes_with_its_turns_marked_as_context(api, talk):
    body = recall(api, context_turns=1)

    (item,) = body["items"]
    assert item["text"] == QUESTION
    assert [(turn["position"], turn["text"]) for turn in item["context"]] == [
        ("before", "The sun was out."),
        ("after", "Yes, at Big Sur."),
    ]
    before = talk[1]
    assert item["context"][0] == {
        "id": str(before.public_id),
        "text": "The sun was out.",
        "sequence": before.sequence,
        "event_type": before.event_type,
        "occurred_at": item["context"][0]["occurred_at"],
        "position": "before",
    }
    assert body["chars"] == len(QUESTION) + len("The sun was out.") + len("Yes, at Big Sur.")


def test_without_context_turns_the_answer_keeps_its_shape(api, owner, talk):
    remember(owner, "User went camping at Big Sur.")

    body = api.post(
        f"{API}/recall", {"query": "camping", "include": ["messages"]}, format="json"
    ).json()

    assert {item["kind"] for item in body["items"]} == {"belief", "message"}
    assert all("context" not in item for item in body["items"])


def test_only_message_items_carry_context(api, owner, talk):
    remember(owner, "User went camping at Big Sur.")

    body = recall(api, context_turns=1, limit=2)

    assert {item["kind"]: "context" in item for item in body["items"]} == {
        "belief": False,
        "message": True,
    }


def test_the_turns_given_as_context_are_recorded_as_read(owner, api, talk):
    body = recall(api, context_turns=2)

    with principal_context(owner):
        (record,) = AccessRecord.objects.filter(owner=owner)
    (item,) = body["items"]
    assert set(record.message_ids) == {item["id"], *(turn["id"] for turn in item["context"])}
    assert len(record.message_ids) == 4


def test_a_token_kept_from_sensitive_things_gets_no_sensitive_turn_as_context(owner, talk):
    with principal_context(owner):
        Event.objects.filter(pk=talk[1].pk).update(sensitivity=Sensitivity.SENSITIVE)

    discreet = recall(token_client(owner, include_sensitive=False), context_turns=2)

    (item,) = discreet["items"]
    assert [turn["text"] for turn in item["context"]] == [
        "We spoke of the weather.",
        "Yes, at Big Sur.",
    ]


def refusal(api, context_turns):
    response = api.post(
        f"{API}/recall", {"query": "x", "context_turns": context_turns}, format="json"
    )
    assert (response.status_code, error_of(response)) == (400, "validation_error")
    return response.json()["error"]


@pytest.mark.parametrize("context_turns", [-1, 4])
def test_context_turns_out_of_0_to_3_is_a_validation_error_naming_it(api, context_turns):
    error = refusal(api, context_turns)

    assert error["message"] == "context_turns must be between 0 and 3."
    assert error["details"] == {"field": "context_turns", "limit": 3}


@pytest.mark.parametrize("context_turns", ["many", True, None])
def test_context_turns_that_is_not_a_number_is_a_validation_error_naming_it(api, context_turns):
    assert "context_turns" in refusal(api, context_turns)["details"]["fields"]


def test_each_item_has_the_fields_the_schema_documents_in_their_order(api, owner, talk):
    remember(owner, "User went camping at Big Sur.")
    documented = list(RecallItemOutput().fields)
    derived_only = ["derived_kind", "tentative", "memory_ids"]

    for options, context in (({"context_turns": 1}, ["context"]), ({}, [])):
        body = recall(api, limit=2, **options)

        items = {item["kind"]: item for item in body["items"]}
        assert list(items) == ["belief", "message"] or list(items) == ["message", "belief"]
        kept = [name for name in documented if name not in [*derived_only, "context"]]
        assert list(items["belief"]) == kept
        assert list(items["message"]) == kept + context
        for item in items.values():
            for source in item["sources"]:
                assert list(source) == list(RecallSourceOutput().fields)
        for turn in items["message"].get("context", []):
            assert list(turn) == list(RecallContextOutput().fields)
