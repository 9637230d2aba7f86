"""What ``reverie-mcp`` tells the model when a call fails: a code of the service's closed
vocabulary and plain words about memories, and nothing on standard error for a refusal
the model caused; a failure of the server's own is still logged."""

import logging
import os
import socket
import sys
import uuid
from pathlib import Path

import pytest
from support import unique

pytest.importorskip("mcp", reason="needs the mcp extra")
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from reverie_client import AsyncReverieClient
from reverie_client.mcp_server import build_server

pytestmark = [pytest.mark.anyio, pytest.mark.mcp]

COMMAND = Path(sys.executable).parent / "reverie-mcp"


def stdio(url: str, token: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=str(COMMAND),
        env={"REVERIE_URL": url, "REVERIE_TOKEN": token, "PATH": os.environ["PATH"]},
    )


@pytest.fixture(scope="module")
async def mcp(service):
    async with Client(stdio(service.url, service.token), cache=None) as client:
        yield client


async def refusal(client, tool: str, **arguments) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    (content,) = result.content
    return content.text


def in_plain_words(text: str) -> bool:
    """No validation library's wording, link or internal name."""
    return not any(
        word in text.lower()
        for word in (
            "belief",
            "pydantic",
            "http",
            "input should",
            "[type=",
            "route",
            "error executing",
        )
    )


@pytest.fixture
def unreachable() -> str:
    """A loopback URL where nothing listens: a call that reaches it cannot succeed."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("correct_memory", {"expected_revision": 1, "statement": "User likes tea."}, "memory_id"),
        ("forget_memory", {"expected_revision": 1}, "memory_id"),
        ("decide_challenge", {"decision": "keep"}, "challenge_id"),
    ],
)
async def test_a_malformed_id_is_a_validation_error_naming_it_before_any_request(
    service, unreachable, tool, arguments, field
):
    # Pointed at a port where nothing listens: the answer can only come from the check.
    async with Client(stdio(unreachable, service.token), cache=None) as client:
        text = await refusal(client, tool, **{field: "not-an-id", **arguments})
    assert text.startswith("validation_error: ")
    assert field in text and in_plain_words(text)


async def test_a_missing_memory_is_not_found_in_plain_words(mcp):
    for tool, arguments in [
        ("forget_memory", {"expected_revision": 1}),
        ("correct_memory", {"expected_revision": 1, "statement": "User likes tea."}),
    ]:
        text = await refusal(mcp, tool, memory_id=str(uuid.uuid4()), **arguments)
        assert text.startswith("not_found: No such memory."), text
        assert in_plain_words(text)


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("recall", {"query": "tea", "limit": 0}, "limit must be a whole number from 1 to 50."),
        ("list_memories", {"limit": 500}, "limit must be a whole number from 1 to 200."),
        ("list_challenges", {"offset": -1}, "offset must be a whole number of at least 0."),
        (
            "forget_memory",
            {"memory_id": str(uuid.uuid4()), "expected_revision": 0},
            "expected_revision must be a whole number of at least 1.",
        ),
        ("recall", {"query": "tea", "limit": "many"}, "limit must be a whole number from 1 to 50."),
        (
            "decide_challenge",
            {"challenge_id": str(uuid.uuid4()), "decision": "maybe"},
            "decision must be one of: keep, replace.",
        ),
        ("list_memories", {"type": "opinion"}, "type must be one of: ownership, preference,"),
        (
            "record_message",
            {"conversation_id": "", "message": "Hi."},
            "conversation_id must be text of 1 to 200 characters.",
        ),
        ("remember", {}, "statement is required."),
    ],
)
async def test_arguments_out_of_range_are_validation_errors_in_plain_words(
    mcp, tool, arguments, expected
):
    text = await refusal(mcp, tool, **arguments)
    assert text.startswith(f"validation_error: {expected}"), text
    assert in_plain_words(text)


async def test_an_unknown_tool_is_not_found(mcp):
    text = await refusal(mcp, "summon")
    assert text == "not_found: No such tool: summon."


async def test_reading_a_memory_that_is_not_there_is_refused_in_plain_words(mcp):
    with pytest.raises(MCPError) as malformed:
        await mcp.read_resource("reverie://memories/not-an-id")
    with pytest.raises(MCPError) as missing:
        await mcp.read_resource(f"reverie://memories/{uuid.uuid4()}")
    assert malformed.value.message.startswith("validation_error: memory_id must be an id")
    assert missing.value.message.startswith("not_found: No such memory.")
    assert malformed.value.code == missing.value.code == INVALID_PARAMS


async def test_refusals_the_model_caused_write_nothing_to_standard_error(service, tmp_path):
    errors = tmp_path / "stderr.txt"
    with open(errors, "w") as errlog:
        transport = stdio_client(stdio(service.url, service.token), errlog=errlog)
        async with Client(transport, cache=None) as client:
            await refusal(client, "forget_memory", memory_id="nope", expected_revision=1)
            await refusal(client, "forget_memory", memory_id=str(uuid.uuid4()), expected_revision=1)
            await refusal(client, "recall", query="tea", limit=0)
            await refusal(client, "summon")
            with pytest.raises(MCPError):
                await client.read_resource(f"reverie://memories/{uuid.uuid4()}")
            remembered = await client.call_tool(
                "remember", {"statement": f"User's {unique('locker')} code is short."}
            )
            assert not remembered.is_error
    assert errors.read_text() == ""


async def test_a_service_out_of_reach_is_logged_as_a_warning(service, unreachable, tmp_path):
    errors = tmp_path / "stderr.txt"
    with open(errors, "w") as errlog:
        transport = stdio_client(stdio(unreachable, service.token), errlog=errlog)
        async with Client(transport, cache=None) as client:
            text = await refusal(client, "recall", query="tea")
    assert text.startswith("service unavailable: ")
    assert "WARNING:reverie_client.mcp:the service failed" in errors.read_text()


async def test_a_failure_of_the_servers_own_is_logged_and_withheld_from_the_model(
    service, monkeypatch, caplog
):
    async def crash(self, *args, **kwargs):
        raise RuntimeError("recall index is corrupt")

    monkeypatch.setattr(AsyncReverieClient, "recall", crash)
    with caplog.at_level(logging.INFO):
        async with Client(build_server(service.url, token=service.token), cache=None) as client:
            text = await refusal(client, "recall", query="tea")
    assert "corrupt" not in text
    (logged,) = [record for record in caplog.records if record.exc_info]
    assert logged.levelno == logging.ERROR
    assert "RuntimeError: recall index is corrupt" in caplog.text


async def test_a_refusal_logs_nothing_in_process_either(service, caplog):
    with caplog.at_level(logging.DEBUG, logger="mcp"):
        async with Client(build_server(service.url, token=service.token), cache=None) as client:
            await refusal(client, "forget_memory", memory_id=str(uuid.uuid4()), expected_revision=1)
            await refusal(client, "recall", query="tea", limit=0)
    logged = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert not [record.getMessage() for record in logged if record.name.startswith("mcp")]
