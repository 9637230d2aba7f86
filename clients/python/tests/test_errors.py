"""Each code of the closed error vocabulary arrives as its exception class, with the
request id and the details.

Every code the service can be made to answer is provoked on the live service; an
``internal_error`` (a failure of the service's own) cannot be provoked from outside,
so its mapping is shown with a recorded answer, like every code's.
"""

import uuid

import httpx
import pytest
from reverie_client import (
    ERROR_CLASSES,
    ApiError,
    ConflictError,
    ForbiddenError,
    InternalError,
    MethodNotAllowedError,
    NotAcceptableError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    Retries,
    ReverieClient,
    ServiceUnavailableError,
    UnauthenticatedError,
    UnsupportedMediaTypeError,
    ValidationError,
)
from support import answered_by


def refusal(call):
    with pytest.raises(ApiError) as raised:
        call()
    error = raised.value
    assert error.request_id, "every refusal names its request"
    assert str(error).startswith(f"{error.code}: ")
    return error


def test_an_invalid_field_is_a_validation_error(client):
    error = refusal(lambda: client.remember("User likes jazz.", type="opinion"))
    assert type(error) is ValidationError
    assert (error.code, error.status_code) == ("validation_error", 400)
    assert "type" in error.details["fields"]


def test_an_unknown_token_is_unauthenticated(service):
    with ReverieClient(service.url, token="rvk_not-a-token") as stranger:
        error = refusal(lambda: stranger.session_list())
    assert type(error) is UnauthenticatedError
    assert error.status_code == 401


def test_a_write_with_a_read_only_token_is_forbidden(service):
    with ReverieClient(service.url, token=service.tokens["alice-read-only"]) as reader:
        assert reader.recall("anything").items is not None
        error = refusal(lambda: reader.remember("User reads a lot."))
    assert type(error) is ForbiddenError
    assert error.status_code == 403


def test_a_missing_id_is_not_found(client):
    error = refusal(lambda: client.memory_get(str(uuid.uuid4())))
    assert type(error) is NotFoundError
    assert error.status_code == 404


def test_a_method_the_route_does_not_take_is_not_allowed(client):
    error = refusal(lambda: client.request("PUT", "/memories", json={}))
    assert type(error) is MethodNotAllowedError
    assert error.status_code == 405


def test_a_media_type_the_service_cannot_answer_in_is_not_acceptable(client):
    error = refusal(lambda: client.request("GET", "/memories", headers={"Accept": "text/csv"}))
    assert type(error) is NotAcceptableError
    assert error.status_code == 406


def test_a_stale_revision_is_a_conflict(client):
    memory = client.remember("User swims on Tuesdays.")
    error = refusal(lambda: client.memory_confirm(memory.id, expected_revision=7))
    assert type(error) is ConflictError
    assert error.details["current_revision"] == memory.revision


def test_a_reused_idempotency_key_with_another_request_is_a_conflict(client):
    client.remember("User likes figs.", idempotency_key="figs-once")
    error = refusal(lambda: client.remember("User likes dates.", idempotency_key="figs-once"))
    assert type(error) is ConflictError
    assert error.details["field"] == "Idempotency-Key"


def test_an_oversized_body_is_payload_too_large(client):
    error = refusal(lambda: client.remember("x" * 300_000))
    assert type(error) is PayloadTooLargeError
    assert error.details["limit"] > 0


def test_a_body_that_is_not_json_is_an_unsupported_media_type(client):
    error = refusal(
        lambda: client.request(
            "POST",
            "/memories",
            content=b"User likes plums.",
            headers={"Content-Type": "text/plain"},
        )
    )
    assert type(error) is UnsupportedMediaTypeError
    assert error.status_code == 415


def test_a_spent_request_budget_is_rate_limited(throttled):
    once = Retries(attempts=1)
    with (
        ReverieClient(throttled.url, token=throttled.token, retries=once) as fast,
        pytest.raises(RateLimitedError) as raised,
    ):
        for _ in range(throttled.per_second + 5):
            fast.session_list(limit=1)
    error = raised.value
    assert error.status_code == 429 and error.request_id
    assert error.retry_after is not None and 0 < error.retry_after <= 1


def test_a_failure_of_the_service_is_an_internal_error():
    def answer(request):
        body = {"error": {"code": "internal_error", "message": "Oops.", "details": {}}}
        return httpx.Response(
            500, json=body, headers={"X-Request-ID": request.headers["X-Request-ID"]}
        )

    with answered_by(answer, retries=Retries(attempts=1)) as c:
        error = refusal(lambda: c.memory_get("00000000-0000-0000-0000-000000000000"))
    assert type(error) is InternalError
    assert error.status_code == 500


@pytest.mark.parametrize("code", list(ERROR_CLASSES))
def test_each_code_maps_to_its_class_with_details_and_request_id(code):
    def answer(request):
        body = {
            "error": {
                "code": code,
                "message": "Refused.",
                "details": {"field": "x"},
                "request_id": "req-1",
            }
        }
        return httpx.Response(418, json=body)

    with answered_by(answer) as c, pytest.raises(ERROR_CLASSES[code]) as raised:
        c.session_list()
    assert (raised.value.code, raised.value.request_id) == (code, "req-1")
    assert raised.value.details == {"field": "x"}


def test_a_code_the_client_does_not_know_is_still_an_api_error():
    body = {"error": {"code": "teapot", "message": "No.", "details": {}, "request_id": "r"}}
    with (
        answered_by(lambda request: httpx.Response(418, json=body)) as c,
        pytest.raises(ApiError) as raised,
    ):
        c.session_list()
    assert type(raised.value) is ApiError and raised.value.code == "teapot"


def test_an_answer_outside_the_api_is_service_unavailable():
    with (
        answered_by(lambda request: httpx.Response(404, text="<html>nginx</html>")) as c,
        pytest.raises(ServiceUnavailableError) as raised,
    ):
        c.session_list()
    assert raised.value.status_code == 404
