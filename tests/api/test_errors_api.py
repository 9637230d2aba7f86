"""Every failure of /api/ has the contract's body and a code from the closed vocabulary."""

import logging

import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create, api_token_revoke
from common.services.flags import flag_set
from tests.conftest import PROXIED_HTTPS

from .helpers import error_of, start_session


def test_no_token_is_unauthenticated(anonymous):
    response = anonymous.get("/api/v1/sessions")

    assert (response.status_code, error_of(response)) == (401, "unauthenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer rvk_not-a-real-token", "Bearer ", "Bearer nonsense"])
def test_a_wrong_token_is_unauthenticated(db, header):
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/v1/sessions")

    assert (response.status_code, error_of(response)) == (401, "unauthenticated")


def test_a_revoked_token_stops_working_at_once(owner):
    token, secret = api_token_create(principal=owner, name="runtime")
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert client.get("/api/v1/sessions").status_code == 200

    api_token_revoke(token_id=token.public_id)

    assert client.get("/api/v1/sessions").status_code == 401


def test_a_deactivated_principals_token_stops_working(owner, api):
    owner.is_active = False
    owner.save()

    assert api.get("/api/v1/sessions").status_code == 401


def test_an_unknown_route_is_not_found(api):
    response = api.get("/api/v1/nothing-here")

    assert (response.status_code, error_of(response)) == (404, "not_found")


def test_a_wrong_method_is_not_allowed(api):
    response = api.put("/api/v1/sessions", {}, format="json")

    assert (response.status_code, error_of(response)) == (405, "method_not_allowed")


def test_an_unacceptable_media_type_is_refused(api):
    response = api.get("/api/v1/sessions", HTTP_ACCEPT="text/html")

    assert (response.status_code, error_of(response)) == (406, "not_acceptable")


@pytest.fixture
def rate(settings):
    def set_rate(value):
        rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "principal": value}
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    return set_rate


def test_throttling_answers_rate_limited_with_retry_after(api, rate):
    rate("2/min")

    statuses = [api.get("/api/v1/sessions").status_code for _ in range(3)]
    response = api.get("/api/v1/sessions")

    assert statuses == [200, 200, 429]
    assert (response.status_code, error_of(response)) == (429, "rate_limited")
    assert int(response["Retry-After"]) >= 1


def test_throttling_counts_each_token_separately(api, other_api, rate):
    rate("1/min")

    first = [client.get("/api/v1/sessions").status_code for client in (api, other_api)]
    second = [client.get("/api/v1/sessions").status_code for client in (api, other_api)]

    assert first == [200, 200]
    assert second == [429, 429]


def test_an_unexpected_failure_is_an_internal_error_logged_with_the_request_id(
    api, monkeypatch, caplog
):
    def broken(**kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr("memory.api.views.sessions.session_list", broken)

    with caplog.at_level(logging.ERROR, logger="memory.api"):
        response = api.get("/api/v1/sessions", HTTP_X_REQUEST_ID="req-123")

    assert (response.status_code, error_of(response)) == (500, "internal_error")
    body = response.content.decode()
    assert "database on fire" not in body and "Traceback" not in body
    assert response.json()["error"]["request_id"] == "req-123"
    assert any("req-123" in record.getMessage() for record in caplog.records)


def test_a_failed_write_leaves_nothing_behind(api, owner, monkeypatch):
    from common.principal import principal_context
    from memory.models import Session

    def broken(session):
        raise RuntimeError("serializer broke after the write")

    monkeypatch.setattr("memory.api.views.sessions.SessionOutput", broken)

    response = api.post("/api/v1/sessions", {"external_id": "x"}, format="json")

    assert response.status_code == 500
    with principal_context(owner):
        assert not Session.objects.filter(owner=owner).exists()


def test_with_the_surface_flag_off_the_api_looks_absent(api, anonymous):
    session = start_session(api)
    flag_set(key="memory_api", enabled=False)

    for client in (api, anonymous):
        for response in (
            client.get("/api/v1/sessions"),
            client.get(f"/api/v1/sessions/{session['id']}"),
            client.post("/api/v1/recall", {"query": "x"}, format="json"),
        ):
            assert (response.status_code, error_of(response)) == (404, "not_found")


def test_the_request_id_is_echoed_or_made_up(api):
    assert api.get("/api/v1/sessions", HTTP_X_REQUEST_ID="abc-1")["X-Request-ID"] == "abc-1"
    made_up = api.get("/api/v1/sessions", HTTP_X_REQUEST_ID="bad id with spaces")
    assert made_up["X-Request-ID"] != "bad id with spaces" and len(made_up["X-Request-ID"]) == 32
