import pytest

from common.principal import principal_context
from memory.models import Event, Session

from .helpers import error_of, say, start_session


def stored_events(principal):
    with principal_context(principal):
        return list(Event.objects.filter(owner=principal).values_list("text", flat=True))


def test_a_runtime_creates_lists_and_reads_sessions(api):
    created = start_session(api, external_id="chat-1")

    listed = api.get("/api/v1/sessions").json()
    detail = api.get(f"/api/v1/sessions/{created['id']}").json()

    assert [s["id"] for s in listed] == [created["id"]]
    assert detail == created
    assert detail["scope"] == "principal" and detail["closed_at"] is None


def test_messages_are_appended_and_listed_in_order(api):
    session = start_session(api)
    say(api, session, "I just got an Apple Watch.")
    say(api, session, "Nice!", type="assistant.message.created")

    events = api.get(f"/api/v1/sessions/{session['id']}/events").json()
    later = api.get(f"/api/v1/sessions/{session['id']}/events?after_sequence=2").json()

    assert [(e["sequence"], e["type"], [p["text"] for p in e["parts"]]) for e in events] == [
        (1, "user.message.created", ["I just got an Apple Watch."]),
        # A conversation that never runs is formed too: its first message flags it.
        (2, "memory.formation.requested", []),
        (3, "assistant.message.created", ["Nice!"]),
    ]
    assert events[1]["payload"]["reason"] == "messages"
    assert [e["sequence"] for e in later] == [3]


def test_closing_a_session_logs_it_and_refuses_more_messages(api):
    session = start_session(api)

    closed = api.post(f"/api/v1/sessions/{session['id']}/close").json()
    refused = api.post(
        f"/api/v1/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": "hello?"}]},
        format="json",
    )

    assert closed["closed_at"] is not None
    assert refused.status_code == 409 and error_of(refused) == "conflict"


def test_erasing_a_session_removes_its_messages_text(api, owner):
    session = start_session(api)
    say(api, session, "My locker code is 2231.")

    erased = api.post(f"/api/v1/sessions/{session['id']}/erase")

    assert erased.status_code == 200 and erased.json()["erased_at"] is not None
    assert set(stored_events(owner)) == {""}


def test_erasing_one_message(api, owner):
    session = start_session(api)
    message = say(api, session, "Forget this.")
    say(api, session, "Keep this.")

    response = api.post(f"/api/v1/events/{message['id']}/erase")

    assert response.status_code == 200 and response.json()["parts"] == []
    assert sorted(stored_events(owner)) == ["", "", "Keep this."]  # one is the formation flag


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/sessions/{id}"),
        ("get", "/api/v1/sessions/{id}/events"),
        ("post", "/api/v1/sessions/{id}/close"),
        ("post", "/api/v1/sessions/{id}/erase"),
        ("post", "/api/v1/sessions/{id}/runs"),
    ],
)
def test_another_owners_session_answers_like_a_missing_one(api, other_api, method, path):
    theirs = start_session(other_api)
    say(other_api, theirs, "Mine, not yours.")

    response = getattr(api, method)(path.format(id=theirs["id"]))
    missing = getattr(api, method)(path.format(id="00000000-0000-4000-8000-000000000000"))

    assert (response.status_code, error_of(response)) == (404, "not_found")
    assert response.json()["error"]["message"] == missing.json()["error"]["message"]


def test_another_owners_sessions_are_not_listed(api, other_api):
    start_session(other_api)

    assert api.get("/api/v1/sessions").json() == []


def test_another_owners_message_cannot_be_erased(api, other_api, other_owner):
    theirs = start_session(other_api)
    message = say(other_api, theirs, "Mine, not yours.")

    response = api.post(f"/api/v1/events/{message['id']}/erase")

    assert response.status_code == 404
    assert "Mine, not yours." in stored_events(other_owner)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "run.completed", "parts": [{"text": "forged"}]}, "type"),
        ({"type": "user.message.created", "parts": []}, "parts"),
        ({"type": "user.message.created", "parts": [{"text": "x", "html": "<b>"}]}, "parts"),
        ({"type": "user.message.created", "parts": [{"text": "x"}], "colour": "red"}, "colour"),
        ({"type": "user.message.created", "parts": "hello"}, "parts"),
        ({"type": "user.message.created", "parts": [{"text": "x"}], "occurred_at": "soon"}, None),
    ],
)
def test_bad_messages_are_refused_and_nothing_is_written(api, owner, body, field):
    session = start_session(api)

    response = api.post(f"/api/v1/sessions/{session['id']}/events", body, format="json")

    assert (response.status_code, error_of(response)) == (400, "validation_error")
    if field:
        details = response.json()["error"]["details"]
        assert field in details.get("fields", {}) or details.get("field", "").startswith(field)
    assert stored_events(owner) == []


def test_a_message_over_the_size_limit_is_too_large(api, owner):
    session = start_session(api)

    response = api.post(
        f"/api/v1/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": "x" * (64 * 1024 + 1)}]},
        format="json",
    )

    assert (response.status_code, error_of(response)) == (413, "payload_too_large")
    assert stored_events(owner) == []


def test_an_oversized_body_is_refused_before_it_is_read(api, owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "api_body_max_bytes": 1000}
    session = start_session(api)

    response = api.post(
        f"/api/v1/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": "x" * 2000}]},
        format="json",
    )

    assert (response.status_code, error_of(response)) == (413, "payload_too_large")
    assert stored_events(owner) == []


def test_malformed_json_is_a_validation_error(api, owner):
    session = start_session(api)

    response = api.generic(
        "POST",
        f"/api/v1/sessions/{session['id']}/events",
        b'{"type": "user.message.created", "parts": [',
        content_type="application/json",
    )

    assert (response.status_code, error_of(response)) == (400, "validation_error")
    assert stored_events(owner) == []


def test_a_body_that_is_not_an_object_is_a_validation_error(api):
    response = api.post("/api/v1/sessions", [1, 2], format="json")

    assert (response.status_code, error_of(response)) == (400, "validation_error")


def test_a_form_body_is_an_unsupported_media_type(api, owner):
    response = api.post("/api/v1/sessions", {"scope": "principal"})  # multipart

    assert (response.status_code, error_of(response)) == (415, "unsupported_media_type")
    with principal_context(owner):
        assert not Session.objects.filter(owner=owner).exists()


def test_a_malformed_id_in_the_path_is_not_found(api):
    response = api.get("/api/v1/sessions/not-a-uuid")

    assert (response.status_code, error_of(response)) == (404, "not_found")


def test_paging_parameters_are_checked(api):
    start_session(api)

    assert api.get("/api/v1/sessions?limit=1").status_code == 200
    response = api.get("/api/v1/sessions?limit=0")
    assert (response.status_code, error_of(response)) == (400, "validation_error")
    assert api.get("/api/v1/sessions?offset=-1").status_code == 400
