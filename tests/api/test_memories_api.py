import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from common.principal import principal_context
from memory.models import Belief
from memory.selectors import feeds

from .helpers import error_of, remember, say, start_session


def statuses(principal):
    with principal_context(principal):
        return dict(Belief.objects.filter(owner=principal).values_list("statement", "status"))


def make_provisional(principal, memory):
    with principal_context(principal):
        Belief.objects.filter(public_id=memory["id"]).update(status="provisional")


def test_remembering_returns_the_memory_with_its_sources(api):
    session = start_session(api)
    message = say(api, session, "My sister Ana lives in Lisbon.")

    memory = remember(
        api,
        "User's sister Ana lives in Lisbon.",
        type="relationship",
        subject="person:ana",
        source_event_ids=[message["id"]],
    )

    assert memory["status"] == "active" and memory["authority"] == "explicit"
    assert memory["revision"] == 1 and memory["supersedes"] is None
    assert memory["sources"] == [
        {
            "event_id": message["id"],
            "session_id": session["id"],
            "sequence": 1,
            "excerpt": "My sister Ana lives in Lisbon.",
        }
    ]
    assert api.get(f"/api/v1/memories/{memory['id']}").json() == memory


def test_the_list_filters_by_status_type_and_review(api, owner):
    tea = remember(api, "User likes tea.", type="preference")
    remember(api, "User drives a BMW X3.", type="ownership")
    make_provisional(owner, tea)

    def listed(query):
        response = api.get(f"/api/v1/memories{query}")
        assert response.status_code == 200, response.content
        return [m["statement"] for m in response.json()["results"]]

    assert sorted(listed("")) == ["User drives a BMW X3.", "User likes tea."]
    assert listed("?status=provisional") == ["User likes tea."]
    assert listed("?type=ownership") == ["User drives a BMW X3."]
    assert listed("?needs_review=true") == []
    assert api.get("/api/v1/memories?status=gone").status_code == 400
    assert api.get("/api/v1/memories?needs_review=maybe").status_code == 400


def test_the_change_feed_hands_out_new_changes_after_its_cursor(api, monkeypatch):
    first = remember(api, "User likes tea.")
    # Everything written so far has settled.
    monkeypatch.setattr(feeds, "SETTLE", timedelta(0))
    page = api.get("/api/v1/memories?changed_since=2000-01-01T00:00:00Z").json()
    assert [m["id"] for m in page["results"]] == [first["id"]]

    second = remember(api, "User likes coffee.")
    later = api.get(f"/api/v1/memories?changed_since={page['next_changed_since']}").json()
    assert [m["id"] for m in later["results"]] == [second["id"]]

    empty = api.get(f"/api/v1/memories?changed_since={later['next_changed_since']}").json()
    assert empty["results"] == []
    assert empty["next_changed_since"] == later["next_changed_since"]


def test_the_change_feed_repeats_what_has_not_settled(api):
    memory = remember(api, "User likes tea.")

    page = api.get("/api/v1/memories?changed_since=2000-01-01T00:00:00Z").json()
    again = api.get(f"/api/v1/memories?changed_since={page['next_changed_since']}").json()

    # Written a moment ago, so a slower transaction could still commit before
    # it: the cursor stays put and the memory comes again.
    assert [m["id"] for m in again["results"]] == [memory["id"]]


@pytest.mark.parametrize("cursor", ["yesterday", "2024-01-01T00:00:00", "bm90IGEgY3Vyc29y"])
def test_a_bad_cursor_is_a_validation_error(api, cursor):
    response = api.get(f"/api/v1/memories?changed_since={cursor}")

    assert (response.status_code, error_of(response)) == (400, "validation_error")


def test_confirm_and_reject_check_the_revision(api, owner):
    tea = remember(api, "User likes tea.")
    coffee = remember(api, "User likes coffee.")
    make_provisional(owner, tea)
    make_provisional(owner, coffee)

    confirmed = api.post(
        f"/api/v1/memories/{tea['id']}/confirm", {"expected_revision": 1}, format="json"
    )
    stale = api.post(
        f"/api/v1/memories/{coffee['id']}/reject", {"expected_revision": 7}, format="json"
    )
    rejected = api.post(
        f"/api/v1/memories/{coffee['id']}/reject", {"expected_revision": 1}, format="json"
    )

    assert confirmed.status_code == 200 and confirmed.json()["status"] == "active"
    assert (stale.status_code, error_of(stale)) == (409, "conflict")
    assert stale.json()["error"]["details"]["current_revision"] == 1
    assert rejected.json()["status"] == "rejected"


def test_a_correction_returns_the_new_memory(api, owner):
    car = remember(api, "User drives a BMW X3.", subject="vehicle:bmw-x3")

    response = api.post(
        f"/api/v1/memories/{car['id']}/correct",
        {"expected_revision": 1, "statement": "User drives a BMW X5."},
        format="json",
    )
    stale = api.post(
        f"/api/v1/memories/{car['id']}/correct",
        {"expected_revision": 1, "statement": "User drives an Audi."},
        format="json",
    )

    new = response.json()
    assert response.status_code == 201
    assert new["supersedes"] == car["id"] and new["subject"] == "vehicle:bmw-x3"
    assert api.get(f"/api/v1/memories/{car['id']}").json()["superseded_by"] == new["id"]
    assert stale.status_code == 409
    assert statuses(owner) == {
        "User drives a BMW X3.": "superseded",
        "User drives a BMW X5.": "active",
    }


def test_deleting_needs_the_revision_and_erases_the_text(api, owner):
    memory = remember(api, "User's PIN hint is Miso.")

    missing = api.delete(f"/api/v1/memories/{memory['id']}")
    stale = api.delete(f"/api/v1/memories/{memory['id']}?expected_revision=2")
    deleted = api.delete(f"/api/v1/memories/{memory['id']}?expected_revision=1")

    assert (missing.status_code, error_of(missing)) == (400, "validation_error")
    assert stale.status_code == 409
    assert deleted.status_code == 200
    assert (deleted.json()["status"], deleted.json()["statement"]) == ("deleted", "")
    assert statuses(owner) == {"": "deleted"}


def test_history_shows_versions_and_changes(api):
    car = remember(api, "User drives a BMW X3.", subject="vehicle:bmw-x3")
    api.post(
        f"/api/v1/memories/{car['id']}/correct",
        {"expected_revision": 1, "statement": "User drives a BMW X5."},
        format="json",
    )

    history = api.get(f"/api/v1/memories/{car['id']}/history").json()

    assert [v["statement"] for v in history["versions"]] == [
        "User drives a BMW X3.",
        "User drives a BMW X5.",
    ]
    assert [c["action"] for c in history["changes"]] == ["remembered", "corrected", "superseded"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/memories/{id}", None),
        ("get", "/api/v1/memories/{id}/history", None),
        ("post", "/api/v1/memories/{id}/confirm", {"expected_revision": 1}),
        ("post", "/api/v1/memories/{id}/reject", {"expected_revision": 1}),
        ("post", "/api/v1/memories/{id}/correct", {"expected_revision": 1, "statement": "x"}),
        ("delete", "/api/v1/memories/{id}?expected_revision=1", None),
    ],
)
def test_another_owners_memory_is_not_found_and_unchanged(
    api, other_api, other_owner, method, path, body
):
    theirs = remember(other_api, "User's childhood nickname was Quokka7.")
    make_provisional(other_owner, theirs)

    response = getattr(api, method)(path.format(id=theirs["id"]), body, format="json")

    assert (response.status_code, error_of(response)) == (404, "not_found")
    assert statuses(other_owner) == {"User's childhood nickname was Quokka7.": "provisional"}


@pytest.mark.parametrize("path", ["/api/v1/memories/{id}", "/api/v1/memories/{id}/history"])
def test_a_missing_memory_is_not_found_in_the_apis_words(api, path):
    response = api.get(path.format(id=uuid.uuid4()))

    assert (response.status_code, error_of(response)) == (404, "not_found")
    assert response.json()["error"]["message"] == "No such memory."


def test_another_owners_memories_are_not_listed(api, other_api):
    remember(other_api, "User's childhood nickname was Quokka7.")

    assert api.get("/api/v1/memories").json()["results"] == []
    assert api.get("/api/v1/memories?changed_since=2000-01-01T00:00:00Z").json()["results"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"statement": ""}, "statement"),
        ({"statement": "x", "type": "opinion"}, "type"),
        ({"statement": "x", "confidence": 2}, "confidence"),
        ({"statement": "x", "subject": "Not A Subject"}, "subject"),
        ({"statement": "x", "source_event_ids": ["not-a-uuid"]}, "source_event_ids"),
        ({"statement": "x", "colour": "red"}, "colour"),
        ({"statement": "x", "expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
    ],
)
def test_bad_memories_are_refused_and_nothing_is_written(api, owner, body, field):
    response = api.post("/api/v1/memories", body, format="json")

    assert (response.status_code, error_of(response)) == (400, "validation_error")
    details = response.json()["error"]["details"]
    assert field in details.get("fields", {}) or details.get("field") == field
    assert statuses(owner) == {}


def test_another_owners_message_is_not_a_valid_source(api, other_api, owner):
    theirs = say(other_api, start_session(other_api), "I have a secret.")

    response = api.post(
        "/api/v1/memories",
        {"statement": "User has a secret.", "source_event_ids": [theirs["id"]]},
        format="json",
    )

    assert (response.status_code, error_of(response)) == (404, "not_found")
    assert statuses(owner) == {}


def test_expiry_is_accepted_in_the_future(api):
    expires = (timezone.now() + timedelta(days=2)).isoformat()

    memory = remember(api, "User is in Rome until Friday.", expires_at=expires)

    assert memory["expires_at"] is not None
