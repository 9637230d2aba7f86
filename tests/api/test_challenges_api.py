"""The owner's challenges in the API: listed beside the memory they challenge, kept or
replaced by the owner, idempotently, and never reached by another principal."""

import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create
from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.services import formation_consolidate
from memory.models import AccessRecord
from tests.conftest import PROXIED_HTTPS

from .helpers import error_of, remember, say, start_session

BMW = "User owns a BMW X3."
SOLD = "User no longer owns a BMW X3."


def consolidate(principal, session):
    return formation_consolidate(
        principal=principal, session_id=session["id"], extractor=DeterministicExtractor()
    )


@pytest.fixture
def challenged(owner, api):
    """The owner's explicit BMW X3, and the message "I sold the BMW X3." formation read."""
    memory = remember(api, BMW, subject="vehicle:bmw-x3", type="ownership")
    session = start_session(api)
    message = say(api, session, "I sold the BMW X3.")
    consolidate(owner, session)
    return memory, message


def test_the_open_challenges_show_both_sides_with_their_sources(api, challenged):
    memory, message = challenged

    response = api.get("/api/v1/challenges")

    assert response.status_code == 200
    (challenge,) = response.json()["results"]
    assert challenge["state"] == "open"
    assert challenge["standing"]["id"] == memory["id"]
    assert (challenge["standing"]["statement"], challenge["standing"]["authority"]) == (
        BMW,
        "explicit",
    )
    assert challenge["proposal"]["statement"] == SOLD
    assert challenge["proposal"]["sources"] == [
        {"event_id": message["id"], "excerpt": "I sold the BMW X3."}
    ]
    assert api.get(f"/api/v1/challenges/{challenge['id']}").json() == challenge
    # Recall keeps the owner's memory meanwhile.
    recalled = api.post("/api/v1/recall", {"query": "BMW X3"}, format="json").json()
    assert [item["text"] for item in recalled["items"]] == [BMW]


def test_a_token_read_of_a_challenge_is_recorded_as_a_read_of_both_sides(owner, api, challenged):
    memory, message = challenged

    api.get("/api/v1/challenges")

    with principal_context(owner):
        record = AccessRecord.objects.get(route="formation_api:challenges")
    assert memory["id"] in [str(i) for i in record.memory_ids]
    assert message["id"] in [str(i) for i in record.message_ids]


def test_keeping_closes_it_and_a_replay_or_a_repeat_changes_nothing(api, challenged):
    memory, _ = challenged
    (challenge,) = api.get("/api/v1/challenges").json()["results"]
    url = f"/api/v1/challenges/{challenge['id']}/keep"

    kept = api.post(url, HTTP_IDEMPOTENCY_KEY="keep-1")
    replayed = api.post(url, HTTP_IDEMPOTENCY_KEY="keep-1")
    repeated = api.post(url)

    assert kept.status_code == replayed.status_code == repeated.status_code == 200
    assert replayed["Idempotent-Replayed"] == "true"
    assert kept.json()["state"] == repeated.json()["state"] == "kept"
    assert api.get("/api/v1/challenges").json()["results"] == []
    assert [c["id"] for c in api.get("/api/v1/challenges?state=kept").json()["results"]] == [
        challenge["id"]
    ]
    assert api.get(f"/api/v1/memories/{memory['id']}").json()["status"] == "active"
    refused = api.post(f"/api/v1/challenges/{challenge['id']}/replace")
    assert (refused.status_code, error_of(refused)) == (409, "conflict")


def test_replacing_makes_the_proposal_the_owners_memory(api, challenged):
    memory, message = challenged
    (challenge,) = api.get("/api/v1/challenges").json()["results"]

    response = api.post(f"/api/v1/challenges/{challenge['id']}/replace")

    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "replaced"
    new = api.get(f"/api/v1/memories/{body['replacement']}").json()
    assert (new["statement"], new["status"], new["polarity"]) == (SOLD, "active", "negative")
    assert [source["event_id"] for source in new["sources"]] == [message["id"]]
    assert api.get(f"/api/v1/memories/{memory['id']}").json()["status"] == "retracted"
    again = api.post(f"/api/v1/challenges/{challenge['id']}/replace")
    assert (again.status_code, again.json()["replacement"]) == (200, body["replacement"])
    refused = api.post(f"/api/v1/challenges/{challenge['id']}/keep")
    assert (refused.status_code, error_of(refused)) == (409, "conflict")


def test_another_principal_can_neither_read_nor_decide_a_challenge(api, other_api, challenged):
    (challenge,) = api.get("/api/v1/challenges").json()["results"]

    assert other_api.get("/api/v1/challenges").json()["results"] == []
    for response in (
        other_api.get(f"/api/v1/challenges/{challenge['id']}"),
        other_api.post(f"/api/v1/challenges/{challenge['id']}/keep"),
        other_api.post(f"/api/v1/challenges/{challenge['id']}/replace"),
    ):
        assert (response.status_code, error_of(response)) == (404, "not_found")
    assert api.get(f"/api/v1/challenges/{challenge['id']}").json()["state"] == "open"


def test_an_unknown_state_is_a_validation_error(api, db):
    response = api.get("/api/v1/challenges?state=pending")

    assert (response.status_code, error_of(response)) == (400, "validation_error")


def test_a_token_of_one_scope_cannot_reach_challenges(owner, challenged):
    _, secret = api_token_create(principal=owner, name="narrow", scope="assistant:cook")
    narrow = APIClient(**PROXIED_HTTPS)
    narrow.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    response = narrow.get("/api/v1/challenges")

    assert (response.status_code, error_of(response)) == (403, "forbidden")
