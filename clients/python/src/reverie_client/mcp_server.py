"""``reverie-mcp``: Reverie as a Model Context Protocol server.

Tools to remember, recall, list, correct and forget the owner's memories, to record
the owner's conversation so that memories form from it, and to show what may have
changed and carry out the owner's decision on it; the owner's memories as resources.
The server holds no state of its own: every tool call is one or a few API calls with
the caller's token, and the service decides what that token may reach: it refuses a
read-only token's writes, and routes over every memory (the challenges among them) to a
token that reaches only part of them.

- ``reverie-mcp`` (stdio): started by a desktop client; acts with ``REVERIE_TOKEN`` for
  the one person using that client.
- ``reverie-mcp --transport http``: streamable HTTP, bound to 127.0.0.1 by default.
  Each request must carry its caller's own ``Authorization: Bearer <token>``; the token
  is checked with the service (an unknown one is answered 401) and forwarded on every
  call. The server never acts with a token of its own for whoever reaches its port:
  ``REVERIE_TOKEN`` is ignored in this mode.

Needs the ``mcp`` extra: ``pip install 'reverie-client[mcp]'``.
"""

import argparse
import hashlib
import ipaddress
import json
import logging
import os
import sys
from typing import Annotated, Any, Literal

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import AnyHttpUrl, Field
from pydantic import ValidationError as ArgumentsError

from ._http import DEFAULT_URL, VERSION, Retries, api_url
from .async_client import AsyncReverieClient
from .errors import ApiError, InternalError, ReverieError, ServiceUnavailableError
from .mcp_errors import (
    checked_id,
    invalid_arguments,
    invalid_resource,
    resource_refusal,
    tool_refusal,
)
from .models import ChallengeState, Memory, MemoryType, RecallItem, Sensitivity

logger = logging.getLogger("reverie_client.mcp")

DEFAULT_PORT = 8100

INSTRUCTIONS = (
    "Reverie is the long-term memory of the person you are helping (the owner). Call "
    "`recall` before answering anything that may depend on what you know about them. "
    "After each exchange, call `record_message` with the conversation's id so that "
    "Reverie can form memories from it in the background. Use `remember` only for what "
    "the owner asks you to remember or states plainly about themselves (it adds a memory "
    "and changes none), and `correct_memory` / `forget_memory` only when they ask; both "
    "need the memory's current revision, which `recall` and `list_memories` show. "
    "`list_challenges` shows "
    "what may have changed: things the owner said that Reverie will not let overrule one "
    "of their memories without them. Ask the owner, and call `decide_challenge` only with "
    "their answer."
)


def _memory(memory: Memory) -> dict[str, Any]:
    """A memory as the model sees it: what it says, and what an owner action needs."""
    return {
        "id": memory.id,
        "statement": memory.statement,
        "type": memory.type,
        "subject": memory.subject,
        "status": memory.status,
        "needs_review": memory.needs_review,
        "revision": memory.revision,
        "confidence": memory.confidence,
        "sensitivity": memory.sensitivity,
        "scope": memory.scope,
        "updated_at": memory.updated_at.isoformat(),
        "supersedes": memory.supersedes,
    }


def _recalled(item: RecallItem) -> dict[str, Any]:
    # The API's "belief" is what the owner, and the model, call a memory.
    kind = "memory" if item.kind == "belief" else item.kind
    found: dict[str, Any] = {"kind": kind, "id": item.id, "text": item.text}
    if item.kind == "belief":
        found.update(
            type=item.type, subject=item.subject, status=item.status, revision=item.revision
        )
    elif item.kind == "message":
        found.update(session_id=item.session_id, occurred_at=_iso(item.occurred_at))
        if item.context is not None:
            found["context"] = [
                {"position": turn.position, "event_type": turn.event_type, "text": turn.text}
                for turn in item.context
            ]
    else:
        found.update(derived_kind=item.derived_kind, tentative=item.tentative)
    return found


def _iso(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


class ReverieTokenVerifier:
    """Admits an HTTP caller whose bearer token the service accepts.

    The check is one read of the caller's own sessions with that token; nothing is
    kept. The session id the SDK binds to the caller is a digest of the token, never the
    token itself.
    """

    def __init__(self, url: str):
        self.url = url

    async def verify_token(self, token: str) -> AccessToken | None:
        async with AsyncReverieClient(self.url, token, retries=Retries(attempts=1)) as reverie:
            try:
                await reverie.session_list(limit=1)
            except ApiError as error:
                logger.info("refused a bearer token: %s", error.code)
                return None
            except ServiceUnavailableError as error:
                logger.warning("cannot check a bearer token: %s", error)
                return None
        digest = hashlib.sha256(token.encode()).hexdigest()[:32]
        return AccessToken(token=token, client_id=f"reverie-token-{digest}", scopes=[])


def build_server(url: str, *, token: str | None = None, http: bool = False) -> MCPServer:
    """The MCP server for the service at ``url``.

    With ``http``, tools act with each request's verified bearer token and ``token``
    must be ``None``; otherwise (stdio) they act with ``token``.
    """
    if http and token is not None:
        raise ValueError("Over HTTP each caller brings its own token; the server has none.")
    url = api_url(url)
    auth: dict[str, Any] = {}
    if http:
        auth = {
            # No OAuth: Reverie issues the tokens and the caller brings one.
            "auth": AuthSettings(issuer_url=AnyHttpUrl(url), resource_server_url=None),
            "token_verifier": ReverieTokenVerifier(url),
        }
    server = _ReverieServer("reverie", version=VERSION, instructions=INSTRUCTIONS, **auth)
    service = _Service(url, token=token, http=http)
    _add_memory_tools(server, service)
    _add_correction_tools(server, service)
    _add_conversation_tools(server, service)
    _add_challenge_tools(server, service)
    _add_resources(server, service)
    return server


class _ReverieServer(MCPServer):
    """The SDK's server, answering each failure the model caused (a refusal of the
    service, arguments that do not fit, an unknown tool) as an error result in plain
    words. The SDK logs every error a tool raises; such a failure is the model's to
    act on, not the operator's, so it is returned instead. A crash still raises, and
    the SDK logs it with its traceback."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            text = await self._explain(name, error)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)

    async def _explain(self, name: str, error: ToolError) -> str:
        tools = {tool.name: tool for tool in await self.list_tools()}
        if name not in tools:
            return f"not_found: No such tool: {name}."
        cause = error.__cause__
        if isinstance(cause, ArgumentsError):
            return invalid_arguments(cause.errors(), tools[name].input_schema)
        # The SDK wraps what a tool raised in "Error executing tool ...": the model
        # reads the tool's own words.
        return str(cause) if isinstance(cause, ToolError) else str(error)


class _Service:
    """The service as one tool call reaches it: with the caller's token, each refusal
    turned into an error the model reads."""

    def __init__(self, url: str, *, token: str | None, http: bool):
        self.url = url
        self.token = token
        self.http = http

    def caller_token(self) -> str:
        if not self.http:
            return self.token or ""
        access = get_access_token()
        if access is None:
            raise ToolError("unauthenticated: this request carries no verified bearer token.")
        return access.token

    async def ask(self, call, refuse=tool_refusal):
        """Run ``call(client)``; a refusal of the service becomes ``refuse(error)`` (a
        tool error the model reads, naming the code). A failure of the service's own is
        also logged: the operator has something to look into."""
        async with AsyncReverieClient(self.url, self.caller_token()) as client:
            try:
                return await call(client)
            except ReverieError as error:
                if isinstance(error, ServiceUnavailableError | InternalError):
                    logger.warning("the service failed: %s", error)
                raise refuse(error) from error


def _add_memory_tools(server: MCPServer, service: _Service) -> None:
    """``remember``, ``recall`` and ``list_memories``: add to the owner's memories and
    read them."""

    @server.tool(
        description=(
            "Adds a memory about the owner, as they stated it: active at once, held as the "
            "owner's own word, and shown on their review site. If the same statement with "
            "the same subject (case, spacing and closing punctuation aside) is already one "
            "of their active stated memories, that memory is returned and nothing is added; "
            "if Reverie had only inferred it, the new memory replaces the inferred one. "
            "Otherwise it is added beside the owner's other memories, those with the same "
            "subject included, and changes none of them. To change what a memory says use "
            "`correct_memory`, to erase one `forget_memory`. Refused if it holds a secret "
            "(password, key, card number) or an instruction to the assistant. Use it only "
            "for what the owner asked you to remember or clearly stated about themselves."
        ),
        annotations=ToolAnnotations(
            title="Remember", read_only_hint=False, destructive_hint=False, open_world_hint=False
        ),
    )
    async def remember(
        statement: Annotated[
            str, Field(description="The memory, e.g. 'User prefers metric units.'")
        ],
        type: Annotated[MemoryType, Field(description="What kind of memory it is.")] = "fact",
        subject: Annotated[
            str | None,
            Field(
                description="What the memory is about, as '<kind>:<entity>' in lower case, "
                "e.g. 'pref:units' or 'device:apple-watch'; taken from the statement's first "
                "words if omitted. It groups memories about one thing and changes none of them."
            ),
        ] = None,
        sensitivity: Annotated[
            Sensitivity,
            Field(
                description="How private it is. A token kept from sensitive things never "
                "reads a 'sensitive' memory, and cannot write one."
            ),
        ] = "normal",
    ) -> dict[str, Any]:
        memory = await service.ask(
            lambda client: client.remember(
                statement, type=type, subject=subject, sensitivity=sensitivity
            )
        )
        return _memory(memory)

    @server.tool(
        description=(
            "Search the owner's memories in use (active, and provisional ones waiting for "
            "their review) for what bears on a question, best match first. Each item is a "
            "memory (kind 'memory', with the id and revision `correct_memory` and "
            "`forget_memory` need), a view Reverie derived from several of them (kind "
            "'derived', when the owner has that switched on) or, with include_messages, one "
            "of the owner's own messages. Call it before answering. Read only: it changes "
            "none of the owner's memories (Reverie notes which ones this token read, never "
            "the query)."
        ),
        annotations=ToolAnnotations(title="Recall", read_only_hint=True, open_world_hint=False),
    )
    async def recall(
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        limit: Annotated[int, Field(ge=1, le=50, description="At most this many.")] = 10,
        include_messages: Annotated[
            bool, Field(description="Also search the owner's original messages.")
        ] = False,
        context_turns: Annotated[
            int,
            Field(
                ge=0,
                le=3,
                description="With include_messages: give each message found up to this many "
                "turns before and after it in its conversation, under 'context', each marked "
                "'before' or 'after'. They are context for the message, not matches.",
            ),
        ] = 0,
    ) -> dict[str, Any]:
        include = ["messages"] if include_messages else None
        found = await service.ask(
            lambda client: client.recall(
                query, limit=limit, include=include, context_turns=context_turns or None
            )
        )
        return {"items": [_recalled(item) for item in found.items], "truncated": found.truncated}

    @server.tool(
        description=(
            "List the owner's memories a page at a time, most recently changed first, each "
            "with its id, revision and status: in every status unless `status` names some "
            "(active, provisional, superseded, retracted, rejected, expired, deleted), and "
            "of every type unless `type` names one. Read only: it changes none of the "
            "owner's memories."
        ),
        annotations=ToolAnnotations(
            title="List memories", read_only_hint=True, open_world_hint=False
        ),
    )
    async def list_memories(
        status: Annotated[
            str | None, Field(description="One status, or several separated by commas.")
        ] = None,
        type: Annotated[MemoryType | None, Field(description="Only this kind.")] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> dict[str, Any]:
        page = await service.ask(
            lambda client: client.memory_list(status=status, type=type, limit=limit, offset=offset)
        )
        return {"memories": [_memory(memory) for memory in page.results]}


def _add_correction_tools(server: MCPServer, service: _Service) -> None:
    """``correct_memory`` and ``forget_memory``: the owner's changes to one memory, made
    only at the revision the model last saw."""

    @server.tool(
        description=(
            "Correct one of the owner's memories when the owner says it is wrong or out of "
            "date: the corrected statement becomes a new active memory, held as the owner's "
            "own word and with the same subject, which replaces this memory only "
            "('supersedes' names it); the old version stays in the memory's history, marked "
            "superseded, where the owner sees both. Other memories are left as they are. "
            "Needs the revision you last saw; if the memory changed since, nothing changes "
            "and the error names the conflict (read it again first)."
        ),
        annotations=ToolAnnotations(
            title="Correct a memory", read_only_hint=False, destructive_hint=False
        ),
    )
    async def correct_memory(
        memory_id: Annotated[str, Field(description="The memory's id.")],
        expected_revision: Annotated[int, Field(ge=1, description="Its revision as you saw it.")],
        statement: Annotated[str, Field(description="The corrected memory.")],
    ) -> dict[str, Any]:
        memory_id = checked_id(memory_id, "memory_id")
        memory = await service.ask(
            lambda client: client.memory_correct(
                memory_id, expected_revision=expected_revision, statement=statement
            )
        )
        return _memory(memory)

    @server.tool(
        description=(
            "Erase one of the owner's memories for good when the owner asks you to forget "
            "it: the text of this memory and of the earlier versions it corrected, and the "
            "excerpts of messages they keep, are deleted (a tombstone of each remains), and "
            "Reverie will not form it again from the same messages. The messages themselves "
            "stay. Cannot be undone. Needs the revision you last saw; if the memory changed "
            "since, nothing is erased and the error names the conflict."
        ),
        annotations=ToolAnnotations(
            title="Forget a memory",
            read_only_hint=False,
            destructive_hint=True,
            idempotent_hint=True,
        ),
    )
    async def forget_memory(
        memory_id: Annotated[str, Field(description="The memory's id.")],
        expected_revision: Annotated[int, Field(ge=1, description="Its revision as you saw it.")],
    ) -> dict[str, Any]:
        memory_id = checked_id(memory_id, "memory_id")
        memory = await service.ask(
            lambda client: client.memory_delete(memory_id, expected_revision=expected_revision)
        )
        return {"id": memory.id, "status": memory.status, "revision": memory.revision}


def _add_conversation_tools(server: MCPServer, service: _Service) -> None:
    """``record_message``: the owner's conversation, from which memories form later."""

    @server.tool(
        description=(
            "Record one exchange of the owner's conversation in their conversation log: "
            "finds (or opens) the conversation by your id for it, appends the owner's "
            "message verbatim (and your reply, if given), and marks the exchange complete. "
            "Reverie forms memories from the log later, in the background, once the "
            "conversation has been quiet for a while: nothing is formed at once, and no "
            "memory changes now."
        ),
        annotations=ToolAnnotations(
            title="Record a message", read_only_hint=False, destructive_hint=False
        ),
    )
    async def record_message(
        conversation_id: Annotated[
            str,
            Field(
                min_length=1,
                max_length=200,
                description="Your stable id for this conversation.",
            ),
        ],
        message: Annotated[str, Field(min_length=1, description="What the owner said.")],
        reply: Annotated[
            str | None, Field(description="Your answer to it, if you have given one.")
        ] = None,
    ) -> dict[str, Any]:
        async def record(client: AsyncReverieClient):
            conversation = await client.conversation(conversation_id)
            return await conversation.record(message, reply)

        recorded = await service.ask(record)
        return {
            "session_id": recorded.session.id,
            "message_id": recorded.message.id,
            "reply_id": recorded.reply.id if recorded.reply is not None else None,
            "run_id": recorded.run.id,
            "run_status": recorded.run.status,
        }


def _add_challenge_tools(server: MCPServer, service: _Service) -> None:
    """``list_challenges`` and ``decide_challenge``: what formation left for the owner to
    decide, and the owner's decision, which the model only carries out."""

    @server.tool(
        description=(
            "List what may have changed about the owner: each challenge is one of the "
            "owner's memories (standing) beside something Reverie read in their "
            "conversation that would retire or replace it (proposal), each with the "
            "messages it rests on. Reverie does not decide these alone; recall keeps the "
            "standing memory until the owner does. Open ones unless state says otherwise, "
            "newest first. Read only: it changes nothing in the owner's data."
        ),
        annotations=ToolAnnotations(
            title="List what may have changed", read_only_hint=True, open_world_hint=False
        ),
    )
    async def list_challenges(
        state: Annotated[
            ChallengeState, Field(description="open (waiting for the owner), kept or replaced.")
        ] = "open",
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> dict[str, Any]:
        page = await service.ask(
            lambda client: client.challenge_list(state=state, limit=limit, offset=offset)
        )
        return {"challenges": [challenge.to_dict() for challenge in page.results]}

    @server.tool(
        description=(
            "Carry out the owner's decision on a challenge from `list_challenges`; call it "
            "only with the owner's own answer, never on your own judgement. Changes the "
            "owner's memories. 'keep': the memory stays as it is and the challenge closes "
            "(the same proposal from the same messages will not ask again). 'replace': the "
            "proposal becomes a memory the owner stated, citing its messages, and the "
            "standing memory is superseded or retracted (kept in its history). Repeating "
            "the decision already made changes nothing; the other decision afterwards is "
            "refused as a conflict."
        ),
        annotations=ToolAnnotations(
            title="Decide a challenge",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )
    async def decide_challenge(
        challenge_id: Annotated[str, Field(description="The challenge's id.")],
        decision: Annotated[
            Literal["keep", "replace"],
            Field(description="What the owner decided: keep the memory, or replace it."),
        ],
    ) -> dict[str, Any]:
        challenge_id = checked_id(challenge_id, "challenge_id")

        async def decide(client: AsyncReverieClient):
            if decision == "keep":
                return await client.challenge_keep(challenge_id)
            return await client.challenge_replace(challenge_id)

        challenge = await service.ask(decide)
        return challenge.to_dict()


def _add_resources(server: MCPServer, service: _Service) -> None:
    """The owner's memories as resources: all of them, and one with its history."""

    @server.resource(
        "reverie://memories",
        name="memories",
        title="The owner's memories",
        description=(
            "The owner's active and provisional memories (up to 200, most recently "
            "changed first), as JSON. Reading changes nothing."
        ),
        mime_type="application/json",
    )
    async def memories() -> str:
        page = await service.ask(
            lambda client: client.memory_list(status=["active", "provisional"], limit=200),
            refuse=resource_refusal,
        )
        return json.dumps([_memory(memory) for memory in page.results], indent=2)

    @server.resource(
        "reverie://memories/{memory_id}",
        name="memory",
        title="One memory",
        description=(
            "One of the owner's memories with its sources and every version and change, as "
            "JSON. Reading changes nothing."
        ),
        mime_type="application/json",
    )
    async def memory(memory_id: str) -> str:
        memory_id = checked_id(memory_id, "memory_id", refuse=invalid_resource)

        async def read(client: AsyncReverieClient):
            return await client.memory_get(memory_id), await client.memory_history(memory_id)

        found, history = await service.ask(read, refuse=resource_refusal)
        return json.dumps({**found.to_dict(), "history": history.to_dict()["changes"]}, indent=2)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="reverie-mcp",
        description="Reverie's memory tools for MCP clients (see the package's README).",
    )
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument(
        "--url",
        default=os.environ.get("REVERIE_URL") or DEFAULT_URL,
        help="the Reverie service (default: $REVERIE_URL, else %(default)s)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP only (default %(default)s)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="HTTP only")
    args = parser.parse_args(argv)
    # Standard output is the protocol's channel over stdio: logs go to standard error.
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    # One line per request to the service is noise in a desktop client's log.
    logging.getLogger("httpx").setLevel(logging.WARNING)

    if args.transport == "stdio":
        token = os.environ.get("REVERIE_TOKEN")
        if not token:
            parser.error("set REVERIE_TOKEN to the API token of the person using this client")
        server = build_server(args.url, token=token)
        server.run("stdio")
        return
    if os.environ.get("REVERIE_TOKEN"):
        logger.warning("REVERIE_TOKEN is ignored over HTTP: each caller sends its own token.")
    if not _loopback(args.host):
        logger.warning(
            "Listening on %s: bearer tokens cross the network in clear unless a TLS proxy "
            "fronts this port.",
            args.host,
        )
    server = build_server(args.url, http=True)
    # Stateless: no MCP session outlives its request, and every request is checked anew.
    server.run(
        "streamable-http",
        host=args.host,
        port=args.port,
        stateless_http=True,
        json_response=True,
    )


if __name__ == "__main__":
    main()
