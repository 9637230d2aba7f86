import pytest

from core.errors import ReverieError
from memory.selectors.recall import EXTRA_SOURCES, ExtraSource, recall

from .helpers import error_of, remember, say, start_session


def test_a_run_completes_and_logs_it(api):
    session = start_session(api)
    run = api.post(f"/api/v1/sessions/{session['id']}/runs").json()

    completed = api.post(f"/api/v1/runs/{run['id']}/complete")
    again = api.post(f"/api/v1/runs/{run['id']}/complete")
    events = api.get(f"/api/v1/sessions/{session['id']}/events").json()

    assert run["status"] == "running"
    assert completed.status_code == 200 and completed.json()["status"] == "completed"
    assert (again.status_code, error_of(again)) == (409, "conflict")
    assert [e["type"] for e in events] == ["run.completed"]
    assert api.get(f"/api/v1/runs/{run['id']}").json()["status"] == "completed"


def test_a_run_waits_then_fails_with_a_code(api):
    session = start_session(api)
    run = api.post(f"/api/v1/sessions/{session['id']}/runs").json()

    waiting = api.post(f"/api/v1/runs/{run['id']}/wait").json()
    failed = api.post(
        f"/api/v1/runs/{run['id']}/fail", {"error_code": "model_timeout"}, format="json"
    ).json()

    assert waiting["status"] == "waiting"
    assert (failed["status"], failed["error_code"]) == ("failed", "model_timeout")


def test_another_owners_run_is_not_found(api, other_api):
    session = start_session(other_api)
    run = other_api.post(f"/api/v1/sessions/{session['id']}/runs").json()

    for response in (
        api.get(f"/api/v1/runs/{run['id']}"),
        api.post(f"/api/v1/runs/{run['id']}/complete"),
    ):
        assert (response.status_code, error_of(response)) == (404, "not_found")
    assert other_api.get(f"/api/v1/runs/{run['id']}").json()["status"] == "running"


def test_recall_returns_the_best_matches_with_their_sources(api):
    session = start_session(api)
    message = say(api, session, "I just got an Apple Watch and I drive a BMW X3.")
    remember(api, "User owns an Apple Watch.", source_event_ids=[message["id"]])
    remember(api, "User drives a BMW X3.", source_event_ids=[message["id"]])

    response = api.post("/api/v1/recall", {"query": "which watch do I have?"}, format="json")

    body = response.json()
    assert response.status_code == 200
    assert [item["text"] for item in body["items"]] == ["User owns an Apple Watch."]
    assert body["items"][0]["sources"][0]["event_id"] == message["id"]
    assert body["terms"] == ["watch"]


def test_recall_can_include_original_messages(api):
    session = start_session(api)
    say(api, session, "We booked a cabin in Tromsø for the northern lights.")

    body = api.post(
        "/api/v1/recall", {"query": "northern lights", "include": ["messages"]}, format="json"
    ).json()

    assert [(i["kind"], i["text"]) for i in body["items"]] == [
        ("message", "We booked a cabin in Tromsø for the northern lights.")
    ]


def test_recall_never_returns_another_owners_memories(api, other_api):
    remember(other_api, "User's childhood nickname was Quokka7.")
    say(other_api, start_session(other_api), "My childhood nickname was Quokka7.")

    body = api.post(
        "/api/v1/recall", {"query": "childhood nickname", "include": ["messages"]}, format="json"
    ).json()

    assert body["items"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"query": "x", "limit": 0},
        {"query": "x", "limit": 1000},
        {"query": "x", "types": ["opinion"]},
        {"query": "x", "statuses": ["deleted"]},
        {"query": "x", "include": ["everything"]},
        {"query": "x", "budget_chars": 0},
        {"query": "x", "since": "yesterday"},
        {"query": ["x"]},
        {"query": "x", "colour": "red"},
    ],
)
def test_bad_recall_options_are_validation_errors(api, body):
    response = api.post("/api/v1/recall", body, format="json")

    assert (response.status_code, error_of(response)) == (400, "validation_error")


@pytest.mark.parametrize(
    "options",
    [
        {"limit": 0},
        {"limit": 1000},
        {"budget_chars": 0},
        {"context_turns": 4},
        {"context_turns": -1},
        {"types": ["opinion"]},
        {"types": [1]},
        {"statuses": ["deleted"]},
        {"include": ["everything"]},
    ],
)
def test_a_bad_recall_option_is_refused_as_recall_itself_refuses_it(api, owner, options):
    with pytest.raises(ReverieError) as refused:
        recall(principal=owner, query="x", **options)

    response = api.post("/api/v1/recall", {"query": "x", **options}, format="json")

    error = response.json()["error"]
    assert (response.status_code, error_of(response)) == (400, refused.value.code)
    assert (error["message"], error["details"]) == (refused.value.message, refused.value.details)


def test_a_registered_recall_source_is_documented_and_accepted(api, client, monkeypatch):
    source = ExtraSource(search=lambda *args: None, select=lambda *args: None)
    monkeypatch.setitem(EXTRA_SOURCES, "notes", source)

    schema = client.get("/api/v1/schema/?format=json").json()
    response = api.post("/api/v1/recall", {"query": "x", "include": ["notes"]}, format="json")

    assert schema["components"]["schemas"]["IncludeEnum"]["enum"] == [
        "messages",
        "derived",
        "notes",
    ]
    assert response.status_code == 200, response.content
