"""Tokens narrowed by their owner: to one assistant's scope, to reading, to non-sensitive memories.

A token narrowed to ``assistant:ide`` sees that assistant's memories and
conversations and the principal-wide ones, never another assistant's; its
writes land in its own scope. A read-only token recalls and lists but never
writes. A token kept from sensitive memories never reads one. Routes that span
every memory (export, erasure, derived memories and operations) need a token
of full reach. Tokens made before any of this reach everything.
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create
from common.principal import principal_context
from memory.models import Belief
from tests.conftest import PROXIED_HTTPS
from tests.memory.helpers import conversation, remember

from .helpers import error_of


def token_client(owner, **narrowing):
    _, secret = api_token_create(principal=owner, name="narrowed", **narrowing)
    api = APIClient(**PROXIED_HTTPS)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api


@pytest.fixture
def bank(owner):
    return {
        "shared": remember(owner, "User lives in Lisbon."),
        "ide": remember(owner, "User writes Python at work.", scope="assistant:ide"),
        "phone": remember(owner, "User calls mum on Sundays.", scope="assistant:phone"),
        "sensitive": remember(owner, "User has asthma.", sensitivity="sensitive"),
    }


def listed(api):
    response = api.get("/api/v1/memories")
    assert response.status_code == 200
    return sorted(item["statement"] for item in response.json()["results"])


def recalled(api, query):
    response = api.post("/api/v1/recall", {"query": query}, format="json")
    assert response.status_code == 200
    return sorted(item["text"] for item in response.json()["items"])


def test_a_scoped_token_sees_its_assistant_and_the_shared_memories_only(owner, bank):
    ide = token_client(owner, scope="assistant:ide")

    assert listed(ide) == [
        "User has asthma.",
        "User lives in Lisbon.",
        "User writes Python at work.",
    ]
    assert recalled(ide, "Lisbon Python Sundays mum") == [
        "User lives in Lisbon.",
        "User writes Python at work.",
    ]
    phone_memory = f"/api/v1/memories/{bank['phone'].public_id}"
    for response in (
        ide.get(phone_memory),
        ide.get(f"{phone_memory}/history"),
        ide.post(f"{phone_memory}/reject", {"expected_revision": 1}, format="json"),
        ide.delete(f"{phone_memory}?expected_revision=1"),
    ):
        assert (response.status_code, error_of(response)) == (404, "not_found")
    with principal_context(owner):
        assert Belief.objects.get(pk=bank["phone"].pk).status == "active"


def test_a_scoped_tokens_writes_land_in_its_scope_and_nowhere_else(owner):
    ide = token_client(owner, scope="assistant:ide")

    made = ide.post("/api/v1/memories", {"statement": "User prefers tabs."}, format="json")
    shared = ide.post(
        "/api/v1/memories",
        {"statement": "User is left-handed.", "scope": "principal"},
        format="json",
    )
    other = ide.post(
        "/api/v1/memories",
        {"statement": "User jogs.", "scope": "assistant:phone"},
        format="json",
    )

    assert made.json()["scope"] == "assistant:ide" and shared.json()["scope"] == "principal"
    assert (other.status_code, error_of(other)) == (403, "forbidden")
    with principal_context(owner):
        assert not Belief.objects.filter(statement="User jogs.").exists()


def test_a_scoped_token_finds_no_other_assistants_conversation(owner):
    phone_session, (message,) = conversation(owner, "Call mum.", scope="assistant:phone")
    ide = token_client(owner, scope="assistant:ide")

    session = f"/api/v1/sessions/{phone_session.public_id}"
    answers = [
        ide.get(session),
        ide.get(f"{session}/events"),
        ide.post(
            f"{session}/events",
            {"type": "user.message.created", "parts": [{"text": "hi"}]},
            format="json",
        ),
        ide.post(f"{session}/runs"),
        ide.post(f"/api/v1/events/{message.public_id}/erase"),
    ]

    assert [(a.status_code, error_of(a)) for a in answers] == [(404, "not_found")] * 5
    assert ide.get("/api/v1/sessions").json() == []
    mine = ide.post("/api/v1/sessions", {}, format="json").json()
    assert mine["scope"] == "assistant:ide"


def test_a_read_only_token_reads_and_recalls_but_never_writes(owner, bank):
    reader = token_client(owner, read_only=True)

    assert len(listed(reader)) == 4
    assert recalled(reader, "Lisbon") == ["User lives in Lisbon."]
    writes = [
        reader.post("/api/v1/memories", {"statement": "User likes figs."}, format="json"),
        reader.post(
            f"/api/v1/memories/{bank['shared'].public_id}/reject",
            {"expected_revision": 1},
            format="json",
        ),
        reader.delete(f"/api/v1/memories/{bank['shared'].public_id}?expected_revision=1"),
        reader.post("/api/v1/sessions", {}, format="json"),
        reader.post("/api/v1/account/erasure"),
    ]

    assert [(w.status_code, error_of(w)) for w in writes] == [(403, "forbidden")] * 5
    with principal_context(owner):
        assert (
            Belief.objects.count() == 4 and Belief.objects.get(pk=bank["shared"].pk).revision == 1
        )


def test_a_token_kept_from_sensitive_memories_never_reads_one(owner, bank):
    discreet = token_client(owner, include_sensitive=False)

    assert "User has asthma." not in listed(discreet)
    assert recalled(discreet, "asthma") == []
    response = discreet.get(f"/api/v1/memories/{bank['sensitive'].public_id}")
    assert (response.status_code, error_of(response)) == (404, "not_found")


@pytest.mark.parametrize(
    "narrowing", [{"scope": "assistant:ide"}, {"read_only": True}, {"include_sensitive": False}]
)
def test_routes_over_every_memory_need_full_reach(owner, narrowing, settings):
    from common.services.flags import flag_set

    flag_set(key="reconsolidation_surface", enabled=True)
    narrowed = token_client(owner, **narrowing)

    answers = [
        narrowed.get("/api/v1/export"),
        narrowed.get("/api/v1/operations"),
        narrowed.get("/api/v1/memories?include=derived"),
    ]

    assert [(a.status_code, error_of(a)) for a in answers] == [(403, "forbidden")] * 3


def test_tokens_reach_everything_unless_narrowed(owner, bank):
    # What tokens made before narrowing existed keep: the defaults.
    token = ApiToken(principal=owner, name="old", prefix="x", digest="y")

    assert (token.scope, token.read_only, token.include_sensitive) == ("principal", False, True)
    assert len(listed(token_client(owner))) == 4
    assert token_client(owner).get("/api/v1/export").status_code == 200


def test_an_owner_narrows_a_token_on_the_review_site(client_logged_in_owner, owner):
    client_logged_in_owner.post(
        reverse("review:account_tokens"),
        {"name": "IDE", "assistant": "ide", "read_only": "on"},
    )

    token = ApiToken.objects.get(principal=owner)
    assert (token.scope, token.read_only, token.include_sensitive) == (
        "assistant:ide",
        True,
        False,
    )


@pytest.fixture
def client_logged_in_owner(owner):
    from django.test import Client

    browser = Client(**PROXIED_HTTPS)
    browser.force_login(owner)
    return browser
