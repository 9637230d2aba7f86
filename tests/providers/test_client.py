"""The HTTP adapter against a real server on loopback: one request per call, and every way
a call can fail is one closed error class."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from formation.model_proposals import (
    SCHEMA,
    SCHEMA_NAME,
    SYSTEM_PROMPT,
    ProposalError,
    parse_proposals,
    user_content,
)
from providers.client import (
    MAX_REPLY_BYTES,
    MalformedReply,
    ProviderRateLimited,
    ProviderRefused,
    ProviderTimeout,
    ProviderUnavailable,
    complete,
    request_bytes,
)
from providers.config import ProviderConfig
from tests.fake_provider import DEADLINE, SHORT_DEADLINE


def payload(config, text="I adopted a cat named Miso. Is it sunny?"):
    return request_bytes(
        config,
        system=SYSTEM_PROMPT,
        user=user_content([("e1", text)], []),
        schema=SCHEMA,
        max_output_tokens=4096,
        schema_name=SCHEMA_NAME,
    )


def test_a_valid_reply_is_a_completion_with_its_usage(config, fake_provider):
    completion = complete(config, payload=payload(config), timeout=DEADLINE)

    assert completion.model == "fake-1"
    assert (completion.input_tokens, completion.output_tokens) == (900, 120)
    (proposal,) = parse_proposals(completion.content, max_proposals=256)
    assert proposal["statement"] == "User adopted a cat named Miso."
    assert proposal["source_ids"] == ["e1"]
    assert fake_provider.requests == 1
    assert fake_provider.last_authorization == "Bearer test-key"


def test_the_request_asks_for_the_strict_schema_and_bounded_output(config, fake_provider):
    complete(config, payload=payload(config), timeout=DEADLINE)

    body = fake_provider.last_body
    assert body["model"] == "fake-1" and body["max_tokens"] == 4096
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


@pytest.mark.parametrize(
    ("behaviour", "error"),
    [
        ("rate_limited", ProviderRateLimited),
        ("unavailable", ProviderUnavailable),
        ("slow", ProviderTimeout),
    ],
)
def test_failed_calls_raise_one_closed_error_each(config, fake_provider, behaviour, error):
    fake_provider.set(behaviour)

    with pytest.raises(error):
        complete(config, payload=payload(config), timeout=SHORT_DEADLINE)
    assert fake_provider.requests == 1  # never retried


@pytest.mark.parametrize(
    ("behaviour", "error_class"), [("malformed", "malformed"), ("schema", "schema_violation")]
)
def test_replies_outside_the_schema_are_refused(config, fake_provider, behaviour, error_class):
    fake_provider.set(behaviour)
    completion = complete(config, payload=payload(config), timeout=DEADLINE)

    with pytest.raises(ProposalError) as refused:
        parse_proposals(completion.content, max_proposals=256)
    assert refused.value.error_class == error_class


def test_more_proposals_than_the_budget_are_refused_whole(config, fake_provider):
    one = {
        "type": "fact",
        "subject": "fact:a",
        "statement": "User a.",
        "polarity": "positive",
        "source_ids": ["e1"],
    }
    fake_provider.set("valid", proposals=[one] * 3)
    completion = complete(config, payload=payload(config), timeout=DEADLINE)

    with pytest.raises(ProposalError) as refused:
        parse_proposals(completion.content, max_proposals=2)
    assert refused.value.error_class == "too_many_proposals"


@pytest.mark.parametrize(
    "item",
    [
        {
            "type": "opinion",
            "subject": "fact:a",
            "statement": "User a.",
            "polarity": "positive",
            "source_ids": ["e1"],
        },
        {
            "type": "fact",
            "subject": "fact:a",
            "statement": "User a.",
            "polarity": "maybe",
            "source_ids": ["e1"],
        },
        {
            "type": "fact",
            "subject": "fact:a",
            "statement": "User a.",
            "polarity": "positive",
            "source_ids": [],
        },
        {
            "type": "fact",
            "subject": "fact:a",
            "statement": "x" * 301,
            "polarity": "positive",
            "source_ids": ["e1"],
        },
        {
            "type": "fact",
            "subject": "fact:a",
            "statement": "User a.",
            "polarity": "positive",
            "source_ids": ["e1"],
            "confidence": 1.0,
        },
        {
            "type": "fact",
            "subject": "fact:a",
            "statement": 7,
            "polarity": "positive",
            "source_ids": ["e1"],
        },
    ],
    ids=["type", "polarity", "no-source", "long", "extra-key", "not-a-string"],
)
def test_each_schema_violation_is_refused(item):
    with pytest.raises(ProposalError) as refused:
        parse_proposals(json.dumps({"proposals": [item]}), max_proposals=256)
    assert refused.value.error_class == "schema_violation"


class _Server:
    """A one-route server answering whatever ``reply`` returns: status and raw body."""

    def __init__(self, reply):
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, body, headers = reply()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        outer.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def complete_against(config, reply):
    """``complete`` against a server answering ``reply()`` (status, body, headers)."""
    server = _Server(reply)
    try:
        return complete(
            ProviderConfig(**{**config.__dict__, "base_url": server.url}),
            payload=payload(config),
            timeout=DEADLINE,
        )
    finally:
        server.close()


def answering(reply):
    return lambda: (200, json.dumps(reply).encode(), {})


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (lambda: (401, b'{"error": "bad key"}', {}), ProviderRefused),
        (lambda: (302, b"", {"Location": "http://example.com/"}), ProviderRefused),
        (lambda: (200, b"<html>hello</html>", {}), MalformedReply),
        (lambda: (200, b'{"choices": []}', {}), MalformedReply),
        (lambda: (200, b" " * (MAX_REPLY_BYTES + 1), {}), MalformedReply),
    ],
    ids=["refused", "redirect-not-followed", "not-json", "no-choice", "too-large"],
)
def test_what_is_not_a_completion_is_refused(config, reply, error):
    with pytest.raises(error):
        complete_against(config, reply)


def test_no_server_listening_is_unavailable(config):
    closed = ProviderConfig(**{**config.__dict__, "base_url": "http://127.0.0.1:9/v1"})

    with pytest.raises(ProviderUnavailable):
        complete(closed, payload=payload(config), timeout=DEADLINE)


def test_missing_usage_is_reported_as_unknown(config):
    reply = {"model": "x", "choices": [{"message": {"content": "{}"}}]}

    completion = complete_against(config, answering(reply))

    assert completion.input_tokens is None and completion.output_tokens is None


def test_a_model_name_that_is_not_a_name_is_not_kept(config):
    reply = {
        "model": "I own a Kindle and my name is Ann",
        "choices": [{"message": {"content": "{}"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1},
    }

    assert complete_against(config, answering(reply)).model == ""


def test_a_base_url_httpx_cannot_use_is_unavailable(config):
    broken = ProviderConfig(**{**config.__dict__, "base_url": "ftp://127.0.0.1/v1"})

    with pytest.raises(ProviderUnavailable):
        complete(broken, payload=payload(config), timeout=DEADLINE)
