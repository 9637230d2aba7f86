"""``reverie-mcp --transport http``: every caller brings its own token, and the server
never lends one of its own, even when REVERIE_TOKEN is set where it runs."""

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from support import unique

pytest.importorskip("mcp", reason="needs the mcp extra")
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

pytestmark = [pytest.mark.anyio, pytest.mark.mcp]


@pytest.fixture(scope="module")
def endpoint(service):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = Path(sys.executable).parent / "reverie-mcp"
    process = subprocess.Popen(
        [str(command), "--transport", "http", "--port", str(port), "--url", service.url],
        # A token in its environment must not become anyone's.
        env={**os.environ, "REVERIE_TOKEN": service.token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        for _ in range(100):
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def connect(url: str, token: str | None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers))
    return Client(transport, cache=None)


LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("token", [None, "rvk_not-a-token"])
def test_a_caller_without_a_valid_token_is_refused(endpoint, token):
    headers = {**ACCEPT, **({"Authorization": f"Bearer {token}"} if token else {})}
    answer = httpx.post(endpoint, json=LIST, headers=headers)
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")


async def test_each_caller_acts_as_the_owner_of_their_own_token(endpoint, service):
    statement = f"User keeps a {unique('bonsai')} on the desk."
    async with connect(endpoint, service.tokens["bob"]) as bob:
        assert {tool.name for tool in (await bob.list_tools()).tools} >= {"remember", "recall"}
        remembered = await bob.call_tool("remember", {"statement": statement})
        assert not remembered.is_error
    async with connect(endpoint, service.token) as alice:
        found = await alice.call_tool("recall", {"query": statement})
        assert statement not in str(found.structured_content)
        mine = await alice.call_tool("list_memories", {"limit": 200})
        assert remembered.structured_content["id"] not in str(mine.structured_content)
    async with connect(endpoint, service.tokens["bob"]) as bob:
        found = await bob.call_tool("recall", {"query": statement})
        assert remembered.structured_content["id"] in str(found.structured_content)


def refused_with(result, code: str) -> bool:
    return result.is_error and code in result.content[0].text


async def test_a_read_only_token_reads_but_cannot_write(endpoint, service):
    async with connect(endpoint, service.tokens["alice-read-only"]) as reader:
        assert not (await reader.call_tool("recall", {"query": "anything"})).is_error
        refused = await reader.call_tool("remember", {"statement": "User likes rain."})
        # What may have changed spans every memory: for a token that reaches all of it.
        unlisted = await reader.call_tool("list_challenges", {})
        undecided = await reader.call_tool(
            "decide_challenge", {"challenge_id": str(uuid.uuid4()), "decision": "keep"}
        )
    assert refused.is_error and "forbidden" in refused.content[0].text
    assert refused_with(unlisted, "forbidden") and refused_with(undecided, "forbidden")


async def test_a_token_narrowed_to_one_assistant_stays_out_of_another_ones(endpoint, service):
    conversation = unique("chat")
    codename = unique("BLUEHERON")
    async with connect(endpoint, service.tokens["alice-chat"]) as chat:
        theirs = await chat.call_tool(
            "record_message",
            {"conversation_id": conversation, "message": f"My project codename is {codename}."},
        )
        memory = await chat.call_tool("remember", {"statement": f"User's codename is {codename}."})
    async with connect(endpoint, service.tokens["alice-ide"]) as ide:
        # The same conversation id names the ide assistant's own conversation: creating it
        # says nothing of the chat assistant's.
        mine = await ide.call_tool(
            "record_message", {"conversation_id": conversation, "message": "I prefer tabs."}
        )
        found = await ide.call_tool("recall", {"query": codename, "include_messages": True})
        # What may have changed spans every assistant's memories: not for one of them.
        challenges = await ide.call_tool("list_challenges", {})
        forgotten = await ide.call_tool(
            "forget_memory",
            {"memory_id": memory.structured_content["id"], "expected_revision": 1},
        )
        corrected = await ide.call_tool(
            "correct_memory",
            {
                "memory_id": memory.structured_content["id"],
                "expected_revision": 1,
                "statement": "User has no codename.",
            },
        )

    assert not theirs.is_error and not mine.is_error
    assert mine.structured_content["session_id"] != theirs.structured_content["session_id"]
    assert codename not in str(found.structured_content)
    assert refused_with(forgotten, "not_found") and refused_with(corrected, "not_found")
    assert refused_with(challenges, "forbidden")


async def test_a_token_kept_from_sensitive_things_never_recalls_a_sensitive_message(
    endpoint, service
):
    conversation = unique("health")
    codename = unique("HERON")
    async with connect(endpoint, service.tokens["alice-discreet"]) as discreet:
        recorded = await discreet.call_tool(
            "record_message",
            {
                "conversation_id": conversation,
                "message": f"My therapist calls the anxiety plan {codename}.",
            },
        )
        hidden = await discreet.call_tool("recall", {"query": codename, "include_messages": True})
    async with connect(endpoint, service.token) as alice:
        found = await alice.call_tool("recall", {"query": codename, "include_messages": True})

    assert not recorded.is_error and not hidden.is_error
    assert codename not in str(hidden.structured_content)
    assert recorded.structured_content["message_id"] in str(found.structured_content)
