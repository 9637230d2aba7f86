"""The synchronous client."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

import httpx

from . import routes
from ._http import (
    DEFAULT_URL,
    Call,
    Retries,
    api_url,
    auth_headers,
    failure,
    request_headers,
    request_kwargs,
    result,
    unreachable,
)
from .conversation import Conversation
from .models import Challenge, ChallengeState, Event, Memory, Operation, Session
from .pagination import ChangeFeed

P = ParamSpec("P")
T = TypeVar("T")


def _operation(
    build: Callable[P, Call[T]],
) -> Callable[Concatenate[ReverieClient, P], T]:
    """The client method for the route that ``build`` describes: same name, arguments
    and documentation, returning the route's result."""

    def method(self: ReverieClient, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(build(*args, **kwargs))

    functools.update_wrapper(method, build)
    return method


class ReverieClient:
    """Reverie's API for one principal: the owner of the token.

    ``base_url`` is the service's address (``REVERIE_URL``, else
    ``http://127.0.0.1:8000``) and ``token`` an API token (``REVERIE_TOKEN``). Writes
    carry an Idempotency-Key and transient failures are retried (see ``Retries``);
    refusals raise the ``ApiError`` subclass of their code. Use it as a context manager,
    or ``close()`` it, to release its connections.
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retries: Retries | None = None,
        transport: httpx.BaseTransport | None = None,
    ):
        self.base_url = api_url(base_url or os.environ.get("REVERIE_URL") or DEFAULT_URL)
        token = token if token is not None else os.environ.get("REVERIE_TOKEN")
        self.retries = retries or Retries()
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=auth_headers(token),
            timeout=timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ReverieClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def send(self, call: Call[T]) -> T:
        """Send ``call`` (built by ``reverie_client.routes``), retrying transient
        failures under the same request id and Idempotency-Key."""
        headers = request_headers(call)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.request(
                    call.method, call.path, **request_kwargs(call, headers)
                )
            except httpx.HTTPError as exc:
                wait = self.retries.after_exception(call, attempt, exc)
                if wait is None:
                    raise unreachable(call, exc, base_url=self.base_url, attempts=attempt) from exc
            else:
                if response.is_success:
                    return result(call, response)
                wait = self.retries.after_response(call, attempt, response)
                if wait is None:
                    raise failure(response)
            time.sleep(wait)

    # -- the API's operations (see reverie_client.routes) --------------------------------

    session_list = _operation(routes.session_list)
    session_create = _operation(routes.session_create)
    session_get = _operation(routes.session_get)
    session_close = _operation(routes.session_close)
    session_erase = _operation(routes.session_erase)
    event_list = _operation(routes.event_list)
    event_append = _operation(routes.event_append)
    event_erase = _operation(routes.event_erase)
    run_create = _operation(routes.run_create)
    run_get = _operation(routes.run_get)
    run_complete = _operation(routes.run_complete)
    run_fail = _operation(routes.run_fail)
    run_wait = _operation(routes.run_wait)
    memory_list = _operation(routes.memory_list)
    remember = _operation(routes.remember)
    memory_get = _operation(routes.memory_get)
    memory_delete = _operation(routes.memory_delete)
    memory_confirm = _operation(routes.memory_confirm)
    memory_reject = _operation(routes.memory_reject)
    memory_correct = _operation(routes.memory_correct)
    memory_history = _operation(routes.memory_history)
    recall = _operation(routes.recall)
    export = _operation(routes.export)
    account_erasure_request = _operation(routes.account_erasure_request)
    account_erasure_confirm = _operation(routes.account_erasure_confirm)
    token_pause = _operation(routes.token_pause)
    token_resume = _operation(routes.token_resume)
    access_list = _operation(routes.access_list)
    challenge_list = _operation(routes.challenge_list)
    challenge_get = _operation(routes.challenge_get)
    challenge_keep = _operation(routes.challenge_keep)
    challenge_replace = _operation(routes.challenge_replace)
    operation_list = _operation(routes.operation_list)
    operation_get = _operation(routes.operation_get)
    operation_undo_preview = _operation(routes.operation_undo_preview)
    operation_undo = _operation(routes.operation_undo)
    derived_get = _operation(routes.derived_get)
    derived_delete = _operation(routes.derived_delete)
    derived_review = _operation(routes.derived_review)
    derived_restrict = _operation(routes.derived_restrict)
    derived_unrestrict = _operation(routes.derived_unrestrict)
    derived_reject = _operation(routes.derived_reject)
    derived_promote = _operation(routes.derived_promote)
    summary_get = _operation(routes.summary_get)
    request = _operation(routes.request)

    # -- pagination ------------------------------------------------------------------------

    def iter_sessions(self, *, page_size: int = 50) -> Iterator[Session]:
        """Every session of the owner, most recently active first, a page at a time."""
        offset = 0
        while True:
            page = self.session_list(limit=page_size, offset=offset)
            yield from page
            if len(page) < page_size:
                return
            offset += page_size

    def iter_events(
        self, session_id: str, *, after_sequence: int = 0, page_size: int = 100
    ) -> Iterator[Event]:
        """A session's events after ``after_sequence``, in order, a page at a time (by
        sequence, so events appended meanwhile are not skipped)."""
        while True:
            page = self.event_list(session_id, after_sequence=after_sequence, limit=page_size)
            yield from page
            if len(page) < page_size:
                return
            after_sequence = page[-1].sequence

    def iter_memories(self, *, page_size: int = 50, **filters: Any) -> Iterator[Memory]:
        """Every memory matching ``filters`` (``status``, ``type``, ``needs_review``), a
        page at a time."""
        offset = 0
        while True:
            page = self.memory_list(limit=page_size, offset=offset, **filters).results
            yield from page
            if len(page) < page_size:
                return
            offset += page_size

    def memory_changes(
        self, since: datetime | str | None = None, *, page_size: int = 50
    ) -> ChangeFeed[Memory]:
        """The memories changed after ``since`` (a cursor, a time, ``None`` for all), to
        iterate; afterwards the feed's ``cursor`` is where to resume."""

        def fetch(cursor: str, limit: int) -> tuple[list[Any], str | None]:
            page = self.memory_list(changed_since=cursor, limit=limit)
            return page.results, page.next_changed_since

        return ChangeFeed(fetch, since, page_size)

    def iter_challenges(
        self, *, state: ChallengeState | None = None, page_size: int = 50
    ) -> Iterator[Challenge]:
        """Every challenge in ``state`` (``open`` unless given), newest first, a page at a
        time."""
        offset = 0
        while True:
            page = self.challenge_list(state=state, limit=page_size, offset=offset).results
            yield from page
            if len(page) < page_size:
                return
            offset += page_size

    def iter_operations(self, *, page_size: int = 50, **filters: Any) -> Iterator[Operation]:
        """Every reconsolidation operation matching ``filters`` (``kind``, ``state``),
        newest first, a page at a time."""
        offset = 0
        while True:
            page = self.operation_list(limit=page_size, offset=offset, **filters).results
            yield from page
            if len(page) < page_size:
                return
            offset += page_size

    def operation_changes(
        self, since: datetime | str | None = None, *, page_size: int = 50
    ) -> ChangeFeed[Operation]:
        """The operations changed after ``since``, to iterate (see ``memory_changes``)."""

        def fetch(cursor: str, limit: int) -> tuple[list[Any], str | None]:
            page = self.operation_list(changed_since=cursor, limit=limit)
            return page.results, page.next_changed_since

        return ChangeFeed(fetch, since, page_size)

    # -- conversations ---------------------------------------------------------------------

    def conversation(
        self,
        external_id: str | None = None,
        *,
        session_id: str | None = None,
        scope: str | None = None,
    ) -> Conversation:
        """The conversation whose session has ``external_id`` (your own id for it,
        opened if new), or the session ``session_id``, or a new session."""
        if session_id is not None:
            return Conversation(self, self.session_get(session_id))
        return Conversation(self, self.session_create(external_id=external_id, scope=scope))
