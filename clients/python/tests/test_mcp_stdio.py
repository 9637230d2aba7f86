"""``reverie-mcp`` over stdio, driven by the official MCP SDK's own client, as a desktop
client starts it: the installed command, configured by REVERIE_URL and REVERIE_TOKEN."""

import json
import os
import sys
from pathlib import Path

import pytest
from support import sold, unique

pytest.importorskip("mcp", reason="needs the mcp extra")
from mcp import Client, StdioServerParameters

pytestmark = [pytest.mark.anyio, pytest.mark.mcp]

COMMAND = Path(sys.executable).parent / "reverie-mcp"
TOOLS = {
    "remember",
    "recall",
    "list_memories",
    "correct_memory",
    "forget_memory",
    "record_message",
    "list_challenges",
    "decide_challenge",
}


def stdio(service, token: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=str(COMMAND),
        env={"REVERIE_URL": service.url, "REVERIE_TOKEN": token, "PATH": os.environ["PATH"]},
    )


@pytest.fixture(scope="module")
async def mcp(service):
    # One server process for the module, as a desktop client keeps one. No response
    # cache: every read below must reach the server.
    async with Client(stdio(service, service.token), cache=None) as client:
        yield client


async def call(client, tool: str, **arguments):
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def test_it_lists_its_tools_and_each_says_what_it_does_to_the_owners_data(mcp):
    tools = {tool.name: tool for tool in (await mcp.list_tools()).tools}
    assert set(tools) == TOOLS
    for name in ("recall", "list_memories", "list_challenges"):
        assert "Read only" in tools[name].description
        assert tools[name].annotations.read_only_hint
    assert "Cannot be undone" in tools["forget_memory"].description
    assert tools["forget_memory"].annotations.destructive_hint
    assert "owner's" in tools["remember"].description
    assert "conversation log" in tools["record_message"].description
    revisioned = tools["forget_memory"].input_schema
    assert set(revisioned["required"]) == {"memory_id", "expected_revision"}
    decide = tools["decide_challenge"]
    assert "Changes the owner's memories" in decide.description
    assert "only with the owner's own answer" in decide.description
    assert not decide.annotations.read_only_hint and decide.annotations.idempotent_hint
    assert set(decide.input_schema["required"]) == {"challenge_id", "decision"}
    assert decide.input_schema["properties"]["decision"]["enum"] == ["keep", "replace"]


async def test_remember_says_it_adds_a_memory_and_leaves_others_of_its_subject_alone(mcp):
    tools = {tool.name: tool for tool in (await mcp.list_tools()).tools}
    remember, correct = tools["remember"], tools["correct_memory"]
    subject_help = remember.input_schema["properties"]["subject"]["description"]
    for text in (remember.description, subject_help):
        assert "supersede" not in text.lower()
    assert "Adds a memory" in remember.description
    assert "correct_memory" in remember.description
    assert "replaces this memory only" in correct.description

    subject = f"pref:{unique('units')}"
    metric = await call(
        mcp, "remember", statement="User prefers metric units.", type="preference", subject=subject
    )
    imperial = await call(
        mcp,
        "remember",
        statement="User prefers imperial units.",
        type="preference",
        subject=subject,
    )
    again = await call(
        mcp, "remember", statement="user prefers metric units", type="preference", subject=subject
    )

    assert imperial["supersedes"] is None and again["id"] == metric["id"]
    listed = await call(mcp, "list_memories", status="active", limit=200)
    assert {m["id"] for m in listed["memories"] if m["subject"] == subject} == {
        metric["id"],
        imperial["id"],
    }


async def test_recall_speaks_of_memories(mcp):
    topic = unique("glider")
    remembered = await call(mcp, "remember", statement=f"User flies a {topic} glider.")
    recalled = await call(mcp, "recall", query=f"{topic} glider")
    (item,) = [item for item in recalled["items"] if item["id"] == remembered["id"]]
    assert item["kind"] == "memory"


async def test_it_remembers_then_recalls(mcp):
    topic = unique("kite")
    remembered = await call(
        mcp, "remember", statement=f"User flies a {topic} on the beach.", type="fact"
    )
    assert remembered["status"] == "active" and remembered["revision"] == 1
    recalled = await call(mcp, "recall", query=f"{topic} beach")
    assert [item["id"] for item in recalled["items"]][:1] == [remembered["id"]]
    listed = await call(mcp, "list_memories", status="active", limit=200)
    assert remembered["id"] in {memory["id"] for memory in listed["memories"]}


async def test_it_recalls_a_message_with_the_turns_around_it_as_context(mcp):
    conversation = unique("trip")
    topic = unique("canoe")
    await call(
        mcp,
        "record_message",
        conversation_id=conversation,
        message=f"Shall we {topic}?",
        reply="Sure, on Sunday.",
    )
    recalled = await call(
        mcp, "recall", query=topic, include_messages=True, limit=1, context_turns=1
    )
    (item,) = recalled["items"]
    assert item["text"] == f"Shall we {topic}?"
    assert [(turn["position"], turn["text"]) for turn in item["context"]] == [
        ("after", "Sure, on Sunday.")
    ]


async def test_forgetting_with_a_stale_revision_is_a_tool_error_naming_the_conflict(mcp):
    memory = await call(mcp, "remember", statement="User's bike is blue.")
    result = await mcp.call_tool(
        "forget_memory", {"memory_id": memory["id"], "expected_revision": memory["revision"] + 1}
    )
    assert result.is_error
    text = result.content[0].text
    assert "conflict" in text and f"current_revision={memory['revision']}" in text
    # Nothing was erased; with the right revision it is.
    forgotten = await call(
        mcp, "forget_memory", memory_id=memory["id"], expected_revision=memory["revision"]
    )
    assert forgotten["status"] == "deleted"


async def test_it_corrects_a_memory(mcp):
    memory = await call(mcp, "remember", statement="User's bike is red.")
    corrected = await call(
        mcp,
        "correct_memory",
        memory_id=memory["id"],
        expected_revision=memory["revision"],
        statement="User's bike is green.",
    )
    assert corrected["supersedes"] == memory["id"]
    assert corrected["statement"] == "User's bike is green."


async def test_it_records_a_message_into_the_conversations_session(mcp, service, client):
    conversation_id = unique("desktop-chat")
    first = await call(
        mcp,
        "record_message",
        conversation_id=conversation_id,
        message="I started learning the violin.",
        reply="How exciting!",
    )
    second = await call(
        mcp, "record_message", conversation_id=conversation_id, message="I practise daily."
    )
    assert first["session_id"] == second["session_id"]
    assert (first["run_status"], second["reply_id"]) == ("completed", None)
    session = client.session_get(first["session_id"])
    assert session.external_id == conversation_id
    types = [event.type for event in client.event_list(session.id)]
    assert types.count("user.message.created") == 2
    assert "memory.formation.requested" in types


async def test_it_lists_what_may_have_changed_and_replaces_it_as_the_owner_decides(
    mcp, service, client
):
    ((memory, message),) = sold(client, service, ["Renault Clio"]).values()

    listed = await call(mcp, "list_challenges")
    (challenge,) = [c for c in listed["challenges"] if c["standing"]["id"] == memory.id]
    assert challenge["state"] == "open"
    assert challenge["standing"]["statement"] == "User owns a Renault Clio."
    assert challenge["proposal"]["statement"] == "User no longer owns a Renault Clio."
    assert challenge["proposal"]["sources"] == [{"event_id": message.id, "excerpt": message.text}]

    replaced = await call(mcp, "decide_challenge", challenge_id=challenge["id"], decision="replace")

    assert (replaced["id"], replaced["state"]) == (challenge["id"], "replaced")
    assert client.memory_get(replaced["replacement"]).statement == (
        "User no longer owns a Renault Clio."
    )
    assert client.memory_get(memory.id).status == "retracted"
    kept = await mcp.call_tool(
        "decide_challenge", {"challenge_id": challenge["id"], "decision": "keep"}
    )
    assert kept.is_error and "conflict" in kept.content[0].text
    closed = await call(mcp, "list_challenges", state="replaced")
    assert challenge["id"] in {c["id"] for c in closed["challenges"]}


async def test_the_owners_memories_are_resources(mcp):
    memory = await call(mcp, "remember", statement="User's favourite tree is the oak.")
    resources = (await mcp.list_resources()).resources
    assert [str(resource.uri) for resource in resources] == ["reverie://memories"]
    listed = json.loads((await mcp.read_resource("reverie://memories")).contents[0].text)
    assert memory["id"] in {item["id"] for item in listed}
    templates = (await mcp.list_resource_templates()).resource_templates
    assert [template.uri_template for template in templates] == ["reverie://memories/{memory_id}"]
    one = json.loads(
        (await mcp.read_resource(f"reverie://memories/{memory['id']}")).contents[0].text
    )
    assert one["statement"] == "User's favourite tree is the oak."
    assert one["history"]


async def test_it_acts_for_the_owner_of_its_token_only(service, mcp):
    theirs = await call(mcp, "remember", statement="User's locker is number 12.")
    async with Client(stdio(service, service.tokens["bob"]), cache=None) as bobs:
        recalled = await call(bobs, "recall", query="locker number 12")
        assert theirs["id"] not in {item["id"] for item in recalled["items"]}
        result = await bobs.call_tool(
            "forget_memory", {"memory_id": theirs["id"], "expected_revision": 1}
        )
        assert result.is_error and "not_found" in result.content[0].text
