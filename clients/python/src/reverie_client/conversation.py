"""A conversation as an assistant runtime drives it: one session per conversation of
yours, and one run per turn.

A turn appends the person's message, starts a run, lets the assistant recall and
answer, and completes the run (or fails it, if the answering raised). Completing or
failing a run is what asks the service to form memories: formation then runs in the
background once the conversation has been quiet for the service's idle window (30 s
by default), or at once when the session is closed. Nothing is formed while the
request that completes the run is being answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import Event, Recall, Run, Session

if TYPE_CHECKING:
    from .async_client import AsyncReverieClient
    from .client import ReverieClient


@dataclass(frozen=True)
class Recorded:
    """What ``Conversation.record`` wrote: the message, the reply (if any) and the run."""

    session: Session
    message: Event
    reply: Event | None
    run: Run


def _failure_code(exc: BaseException | None) -> str:
    return type(exc).__name__[:100] if exc is not None else ""


class Turn:
    """One turn of a conversation, as a context manager.

    Entering appends the person's message and starts a run; leaving completes the run,
    or fails it with the exception's class name when the block raised.
    """

    def __init__(self, conversation: Conversation, text: str, **message: Any):
        self._conversation = conversation
        self._text = text
        self._message_fields = message
        self.message: Event | None = None
        self.run: Run | None = None

    @property
    def _client(self) -> ReverieClient:
        return self._conversation.client

    def __enter__(self) -> Turn:
        session_id = self._conversation.session.id
        self.message = self._client.event_append(session_id, self._text, **self._message_fields)
        self.run = self._client.run_create(session_id)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self.run is not None
        if exc is None:
            self.run = self._client.run_complete(self.run.id)
        else:
            self.run = self._client.run_fail(self.run.id, error_code=_failure_code(exc))

    def recall(self, query: str | None = None, **options: Any) -> Recall:
        """Recall for this turn: by default, with the person's message as the query."""
        return self._client.recall(self._text if query is None else query, **options)

    def reply(self, text: str, **message: Any) -> Event:
        """Append the assistant's answer to the conversation."""
        return self._client.event_append(
            self._conversation.session.id, text, type="assistant.message.created", **message
        )


class Conversation:
    """A conversation of the owner: the session whose ``external_id`` is your own id
    for it (opened on first use, found again afterwards)."""

    def __init__(self, client: ReverieClient, session: Session):
        self.client = client
        self.session = session

    def turn(self, text: str, **message: Any) -> Turn:
        """``with conversation.turn(text) as turn:``: see ``Turn``."""
        return Turn(self, text, **message)

    def record(self, text: str, reply: str | None = None, **message: Any) -> Recorded:
        """A whole turn at once: append the message (and the reply), start and complete
        the run."""
        with self.turn(text, **message) as turn:
            answer = turn.reply(reply) if reply is not None else None
        assert turn.message is not None and turn.run is not None
        return Recorded(self.session, turn.message, answer, turn.run)

    def close(self) -> Session:
        """Close the session: formation consolidates it without waiting for quiet."""
        self.session = self.client.session_close(self.session.id)
        return self.session


class AsyncTurn:
    """``Turn`` for the asynchronous client: ``async with conversation.turn(text)``."""

    def __init__(self, conversation: AsyncConversation, text: str, **message: Any):
        self._conversation = conversation
        self._text = text
        self._message_fields = message
        self.message: Event | None = None
        self.run: Run | None = None

    @property
    def _client(self) -> AsyncReverieClient:
        return self._conversation.client

    async def __aenter__(self) -> AsyncTurn:
        session_id = self._conversation.session.id
        self.message = await self._client.event_append(
            session_id, self._text, **self._message_fields
        )
        self.run = await self._client.run_create(session_id)
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:
        assert self.run is not None
        if exc is None:
            self.run = await self._client.run_complete(self.run.id)
        else:
            self.run = await self._client.run_fail(self.run.id, error_code=_failure_code(exc))

    async def recall(self, query: str | None = None, **options: Any) -> Recall:
        """Recall for this turn: by default, with the person's message as the query."""
        return await self._client.recall(self._text if query is None else query, **options)

    async def reply(self, text: str, **message: Any) -> Event:
        """Append the assistant's answer to the conversation."""
        return await self._client.event_append(
            self._conversation.session.id, text, type="assistant.message.created", **message
        )


class AsyncConversation:
    """``Conversation`` for the asynchronous client."""

    def __init__(self, client: AsyncReverieClient, session: Session):
        self.client = client
        self.session = session

    def turn(self, text: str, **message: Any) -> AsyncTurn:
        """``async with conversation.turn(text) as turn:``: see ``Turn``."""
        return AsyncTurn(self, text, **message)

    async def record(self, text: str, reply: str | None = None, **message: Any) -> Recorded:
        """A whole turn at once: append the message (and the reply), start and complete
        the run."""
        async with self.turn(text, **message) as turn:
            answer = await turn.reply(reply) if reply is not None else None
        assert turn.message is not None and turn.run is not None
        return Recorded(self.session, turn.message, answer, turn.run)

    async def close(self) -> Session:
        """Close the session: formation consolidates it without waiting for quiet."""
        self.session = await self.client.session_close(self.session.id)
        return self.session
