import threading

import pytest
from django.db import connection

from memory.models import Belief, Event, IdempotencyRecord
from memory.principal import principal_context

from .helpers import error_of, start_session


def count(model, principal):
    with principal_context(principal):
        return model.objects.filter(owner=principal).count()


def test_a_replayed_key_returns_the_original_response_and_writes_once(api, owner):
    session = start_session(api)
    body = {"type": "user.message.created", "parts": [{"text": "hello"}]}
    url = f"/api/v1/sessions/{session['id']}/events"

    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="append-1")
    second = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="append-1")

    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert count(Event, owner) == 1


def test_the_same_key_with_another_body_is_a_conflict(api, owner):
    api.post("/api/v1/memories", {"statement": "A."}, format="json", HTTP_IDEMPOTENCY_KEY="k")

    response = api.post(
        "/api/v1/memories", {"statement": "B."}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )

    assert (response.status_code, error_of(response)) == (409, "conflict")
    with principal_context(owner):
        assert list(Belief.objects.values_list("statement", flat=True)) == ["A."]


def test_keys_belong_to_their_principal(api, other_api, owner, other_owner):
    body = {"statement": "User likes tea."}
    mine = api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    theirs = other_api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="shared")

    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]
    assert count(Belief, owner) == count(Belief, other_owner) == 1


def test_a_failed_write_does_not_use_up_its_key(api, owner):
    bad = api.post("/api/v1/memories", {"statement": ""}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    good = api.post(
        "/api/v1/memories", {"statement": "Fixed."}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )

    assert bad.status_code == 400 and good.status_code == 201
    assert count(IdempotencyRecord, owner) == 1


def test_a_malformed_key_is_a_validation_error(api, owner):
    response = api.post(
        "/api/v1/memories", {"statement": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="a b"
    )

    assert (response.status_code, error_of(response)) == (400, "validation_error")
    assert count(Belief, owner) == 0


def test_a_delete_replays_too(api, owner):
    memory = api.post("/api/v1/memories", {"statement": "x"}, format="json").json()
    url = f"/api/v1/memories/{memory['id']}?expected_revision=1"

    first = api.delete(url, HTTP_IDEMPOTENCY_KEY="del-1")
    second = api.delete(url, HTTP_IDEMPOTENCY_KEY="del-1")

    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_write_once(owner):
    from .conftest import client_for

    clients = [client_for(owner) for _ in range(4)]
    session = start_session(clients[0])
    url = f"/api/v1/sessions/{session['id']}/events"
    body = {"type": "user.message.created", "parts": [{"text": "only once"}]}
    responses = []

    def post(client):
        try:
            responses.append(client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="race"))
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [r.status_code for r in responses] == [201] * 4
    assert len({r.json()["id"] for r in responses}) == 1
    assert count(Event, owner) == 1
