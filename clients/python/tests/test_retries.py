"""Retries of transient failures, and why they never write twice."""

import socket

import httpx
import pytest
from reverie_client import (
    RateLimitedError,
    ReverieClient,
    ServiceUnavailableError,
)
from support import FAST, answered_by, unique


class LosesFirstAnswer(httpx.BaseTransport):
    """Delivers every request to the service, but loses the answer to the first write:
    the write happened, and the client only sees the connection drop."""

    def __init__(self):
        self.inner = httpx.HTTPTransport()
        self.answers: list[httpx.Response] = []
        self.sent: list[httpx.Request] = []

    def handle_request(self, request):
        self.sent.append(request)
        response = self.inner.handle_request(request)
        response.read()
        self.answers.append(response)
        if request.method == "POST" and len(self.answers) == 1:
            raise httpx.ReadError("connection reset after the request was sent", request=request)
        return response

    def close(self):
        self.inner.close()


def test_a_write_whose_answer_was_lost_is_replayed_not_repeated(service):
    transport = LosesFirstAnswer()
    statement = f"User learns the {unique('instrument')}."
    with ReverieClient(service.url, token=service.token, transport=transport, retries=FAST) as c:
        memory = c.remember(statement)
        first, second = transport.answers
        assert first.status_code == second.status_code == 201
        assert second.headers["Idempotent-Replayed"] == "true"
        assert first.json()["id"] == second.json()["id"] == memory.id
        keys = {request.headers["Idempotency-Key"] for request in transport.sent}
        request_ids = {request.headers["X-Request-ID"] for request in transport.sent}
        assert len(keys) == len(request_ids) == 1
        written = [m for m in c.iter_memories(status="active") if m.statement == statement]
        assert [m.id for m in written] == [memory.id]


def test_a_read_is_retried_through_a_restarting_service():
    attempts = []

    def answer(request):
        attempts.append(request)
        if len(attempts) < 3:
            return httpx.Response(503, text="restarting")
        return httpx.Response(200, json=[])

    with answered_by(answer) as c:
        assert c.session_list() == []
    assert len(attempts) == 3


def test_it_gives_up_after_its_attempts():
    attempts = []

    def answer(request):
        attempts.append(request)
        return httpx.Response(502, text="bad gateway")

    with (
        ReverieClient(
            "http://reverie.test", token="t", transport=httpx.MockTransport(answer), retries=FAST
        ) as c,
        pytest.raises(ServiceUnavailableError) as raised,
    ):
        c.remember("User likes kites.")
    assert raised.value.status_code == 502
    assert len(attempts) == FAST.attempts
    assert len({request.headers["Idempotency-Key"] for request in attempts}) == 1


def test_an_unreachable_service_is_service_unavailable():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with (
        ReverieClient(f"http://127.0.0.1:{port}", token="t", retries=FAST) as c,
        pytest.raises(ServiceUnavailableError) as raised,
    ):
        c.session_list()
    assert raised.value.status_code is None
    assert str(raised.value) == (
        f"GET http://127.0.0.1:{port}/api/v1/sessions: connection refused, {FAST.attempts} "
        f"tries. Is Reverie running at http://127.0.0.1:{port}?"
    )


def test_a_timeout_says_so_without_the_query_string():
    def answer(request):
        raise httpx.ReadTimeout("timed out", request=request)

    with (
        ReverieClient(
            "http://reverie.test", token="t", transport=httpx.MockTransport(answer), retries=FAST
        ) as c,
        pytest.raises(ServiceUnavailableError) as raised,
    ):
        c.session_list(limit=5)
    assert str(raised.value) == (
        "GET http://reverie.test/api/v1/sessions: no whole answer within the client's "
        f"timeout, {FAST.attempts} tries."
    )


def test_a_page_that_is_not_the_apis_names_the_address_asked():
    def answer(request):
        return httpx.Response(
            403, text="<html>Forbidden</html>", headers={"Content-Type": "text/html"}
        )

    with (
        ReverieClient(
            "http://proxy.test/", token="t", transport=httpx.MockTransport(answer), retries=FAST
        ) as c,
        pytest.raises(ServiceUnavailableError) as raised,
    ):
        c.recall("what tea?")
    assert raised.value.status_code == 403
    assert str(raised.value) == (
        "POST http://proxy.test/api/v1/recall answered 403 (text/html) without an error body "
        "of Reverie's API. Is http://proxy.test Reverie's address?"
    )


def test_a_write_the_service_keeps_no_key_for_is_not_retried_once_sent():
    attempts = []

    def answer(request):
        attempts.append(request)
        raise httpx.ReadError("connection reset", request=request)

    with (
        ReverieClient(
            "http://reverie.test", token="t", transport=httpx.MockTransport(answer), retries=FAST
        ) as c,
        pytest.raises(ServiceUnavailableError),
    ):
        c.account_erasure_confirm("token")
    assert len(attempts) == 1
    assert "Idempotency-Key" not in attempts[0].headers


def test_a_write_that_never_left_is_retried_even_without_a_key():
    attempts = []

    def answer(request):
        attempts.append(request)
        if len(attempts) == 1:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(202, json={"token": "t", "expires_at": "2030-01-01T00:00:00Z"})

    with answered_by(answer) as c:
        assert c.account_erasure_request().token == "t"
    assert len(attempts) == 2


def test_a_long_retry_after_is_raised_at_once():
    attempts = []

    def answer(request):
        attempts.append(request)
        body = {
            "error": {
                "code": "rate_limited",
                "message": "Too many requests; retry later.",
                "details": {"retry_after": 59.2},
                "request_id": "r",
            }
        }
        return httpx.Response(429, json=body, headers={"Retry-After": "60"})

    with (
        ReverieClient(
            "http://reverie.test", token="t", transport=httpx.MockTransport(answer), retries=FAST
        ) as c,
        pytest.raises(RateLimitedError) as raised,
    ):
        c.recall("x")
    assert raised.value.retry_after == pytest.approx(59.2)
    assert len(attempts) == 1


class Counts(httpx.HTTPTransport):
    def __init__(self):
        super().__init__()
        self.statuses: list[int] = []

    def handle_request(self, request):
        response = super().handle_request(request)
        self.statuses.append(response.status_code)
        return response


def test_a_short_rate_limit_is_waited_out(throttled):
    transport = Counts()
    calls = throttled.per_second * 2 + 1
    with ReverieClient(
        throttled.url, token=throttled.token, retries=FAST, transport=transport
    ) as c:
        answered = [c.session_list(limit=1) for _ in range(calls)]
    assert len(answered) == calls
    assert 429 in transport.statuses
    assert transport.statuses.count(200) == calls
