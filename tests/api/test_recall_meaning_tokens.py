"""Recall by meaning through the API, with narrowed tokens: each finds the paraphrased memories
it may see and none it may not, as recall by words does."""

import pytest

from memory.services.vectors import vectors_embed_principal
from tests.memory.helpers import remember

from .test_token_narrowing import token_client


@pytest.fixture
def bank(owner):
    memories = {
        "shared": remember(owner, "User lives in Lisbon."),
        "ide": remember(owner, "User writes Python at work.", scope="assistant:ide"),
        "phone": remember(owner, "User does volunteer work at weekends.", scope="assistant:phone"),
        "sensitive": remember(owner, "User is allergic to penicillin."),
        "ordinary": remember(owner, "User reacts badly to antibiotics."),
    }
    vectors_embed_principal(principal=owner)
    return memories


def recalled(api, query):
    response = api.post("/api/v1/recall", {"query": query}, format="json")
    assert response.status_code == 200
    return [item["text"] for item in response.json()["items"]]


def test_a_token_narrowed_to_one_assistant_finds_its_memories_by_meaning_and_no_others(owner, bank):
    ide = token_client(owner, scope="assistant:ide")
    everything = token_client(owner)

    # No word of either question is in the memory it finds.
    assert recalled(ide, "What's my job?") == ["User writes Python at work."]
    assert recalled(ide, "Where am I based?") == ["User lives in Lisbon."]
    assert sorted(recalled(everything, "What's my job?")) == sorted(
        ["User writes Python at work.", "User does volunteer work at weekends."]
    )


def test_a_token_kept_from_sensitive_memories_never_finds_one_by_meaning(owner, bank):
    discreet = token_client(owner, include_sensitive=False)
    everything = token_client(owner)

    assert recalled(discreet, "Any medicine I react to?") == ["User reacts badly to antibiotics."]
    assert sorted(recalled(everything, "Any medicine I react to?")) == sorted(
        ["User is allergic to penicillin.", "User reacts badly to antibiotics."]
    )


def test_the_profile_through_a_narrowed_token_holds_only_what_it_sees(owner, bank):
    ide = token_client(owner, scope="assistant:ide", include_sensitive=False)

    response = ide.post("/api/v1/recall", {"query": "What do you know about me?"}, format="json")

    body = response.json()
    assert body["profile"] is True
    assert sorted(item["text"] for item in body["items"]) == sorted(
        [
            "User lives in Lisbon.",
            "User writes Python at work.",
            "User reacts badly to antibiotics.",
        ]
    )
