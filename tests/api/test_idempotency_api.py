import hashlib
import json
import threading

import pytest
from django.db import connection

from common.principal import principal_context
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Belief, Event, IdempotencyRecord

from .helpers import error_of, start_session


def count(model, principal):
    """How many ``model`` rows the principal has; of events, messages."""
    with principal_context(principal):
        found = model.objects.filter(owner=principal)
        if model is Event:
            found = found.filter(event_type__in=MESSAGE_EVENT_TYPES)
        return found.count()


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


def test_a_record_keeps_the_status_and_id_but_no_text(api, owner):
    made = api.post(
        "/api/v1/memories",
        {"statement": "User likes oolong."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    ).json()

    with principal_context(owner):
        record = IdempotencyRecord.objects.get(owner=owner, key="k")
    assert (record.status_code, record.resource_id) == (201, made["id"])
    assert "oolong" not in str([getattr(record, f.attname) for f in record._meta.concrete_fields])


def test_a_replay_after_erasure_shows_the_erasure_not_the_text(api, owner):
    session = start_session(api)
    message = api.post(
        f"/api/v1/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": "I drive a Honda Civic."}]},
        format="json",
    ).json()
    body = {"statement": "User drives a Honda Civic.", "source_event_ids": [message["id"]]}
    first = api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    api.post(f"/api/v1/events/{message['id']}/erase")

    replay = api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")

    assert (replay.status_code, replay["Idempotent-Replayed"]) == (201, "true")
    assert replay.json()["id"] == first.json()["id"]
    assert replay.json()["status"] == "deleted"
    assert "Civic" not in replay.content.decode()


def test_a_replay_shows_what_changed_since(api, owner):
    made = api.post(
        "/api/v1/memories",
        {"statement": "User likes tea."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    ).json()
    api.post(f"/api/v1/memories/{made['id']}/reject", {"expected_revision": 1}, format="json")

    replay = api.post(
        "/api/v1/memories",
        {"statement": "User likes tea."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )

    assert replay.json()["status"] == "rejected" and replay.json()["revision"] == 2


def test_the_purge_deletes_expired_records_and_keeps_fresh_ones(api, owner):
    from datetime import timedelta

    from django.utils import timezone

    from memory.models import MaintenanceDue
    from memory.services.idempotency import IDEMPOTENCY_KEY_LIFETIME, idempotency_purge_sweep

    for key in ("old", "new"):
        api.post("/api/v1/memories", {"statement": key}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    a_day_ago = timezone.now() - IDEMPOTENCY_KEY_LIFETIME - timedelta(minutes=1)
    with principal_context(owner):
        IdempotencyRecord.objects.filter(key="old").update(created_at=a_day_ago)
    due = MaintenanceDue.objects.get(owner=owner, kind="idempotency_purge")
    due.due_at = a_day_ago + IDEMPOTENCY_KEY_LIFETIME
    due.save()

    assert idempotency_purge_sweep(now=due.due_at - timedelta(seconds=1)) == 0
    assert idempotency_purge_sweep() == 1

    with principal_context(owner):
        assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    due.refresh_from_db()
    assert due.due_at > timezone.now()

    later = timezone.now() + IDEMPOTENCY_KEY_LIFETIME + timedelta(minutes=1)
    assert idempotency_purge_sweep(now=later) == 1
    assert not MaintenanceDue.objects.filter(owner=owner, kind="idempotency_purge").exists()


def test_the_purge_is_a_declared_schedule():
    from common.schedules import declared_schedules

    (spec,) = [s for s in declared_schedules() if s["name"] == "memory.idempotency_purge"]
    assert spec["func"] == "memory.tasks.idempotency_purge_task"


def test_a_stored_fingerprint_confirms_no_guess_of_the_request(api, owner):
    body = {"statement": "User was diagnosed with asthma."}
    api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="guess-me")
    request = json.dumps(body, sort_keys=True, separators=(",", ":"))

    with principal_context(owner):
        stored = IdempotencyRecord.objects.get(owner=owner, key="guess-me").fingerprint

    for material in (f"POST /api/v1/memories\n{request}", request, body["statement"]):
        assert hashlib.sha256(material.encode()).hexdigest() != stored
        assert hashlib.sha256(material.encode()).hexdigest()[: len(stored)] != stored


def test_a_key_in_flight_does_not_replay_once_the_secret_key_is_rotated(api, owner, settings):
    body = {"statement": "User likes tea."}
    api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="in-flight")

    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    retried = api.post("/api/v1/memories", body, format="json", HTTP_IDEMPOTENCY_KEY="in-flight")

    assert (retried.status_code, error_of(retried)) == (409, "conflict")
    assert count(Belief, owner) == 1
