"""Every route of the API, once: a function per operation that builds its ``Call``.

The synchronous and the asynchronous client expose each of these as a method of the
same name and signature (``client.memory_get(id)``), which sends the call and returns
its result. Keyword names are the API's own field names; ``None`` leaves a field out,
so the service's default applies. Writes take an ``idempotency_key``; without one the
client makes a fresh key per call, kept across that call's retries.

Each docstring says what the route does to the owner's data.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ._http import Call
from .models import (
    AccessRecord,
    Challenge,
    ChallengePage,
    ChallengeState,
    DerivedControl,
    Erasure,
    ErasureRequest,
    Event,
    History,
    LiveStatus,
    Memory,
    MemoryPage,
    MemoryType,
    MessageType,
    OperationDetail,
    OperationKind,
    OperationPage,
    OperationState,
    Polarity,
    Portability,
    Recall,
    RecallInclude,
    Run,
    Sensitivity,
    Session,
    SummaryJournal,
    Token,
    Undo,
    UndoPreview,
)
from .models import Derived as DerivedMemory

Time = datetime | str


def _fields(**values: Any) -> dict[str, Any]:
    """The given fields without the ``None`` ones, times in ISO-8601."""
    return {
        name: value.isoformat() if isinstance(value, datetime) else value
        for name, value in values.items()
        if value is not None
    }


def _read(op: str, template: str, returns: Any, params=None, /, **path: str) -> Call[Any]:
    return Call(
        op,
        "GET",
        template,
        returns,
        path_params=path,
        params=_fields(**params) if params else None,
        reads=True,
    )


def _write(
    op: str,
    template: str,
    returns: Any,
    /,
    *,
    method: str = "POST",
    body: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
    **path: str,
) -> Call[Any]:
    return Call(
        op,
        method,
        template,
        returns,
        path_params=path,
        params=_fields(**params) if params else None,
        body=body,
        keyed=True,
        idempotency_key=idempotency_key,
    )


# -- sessions ---------------------------------------------------------------------------


def session_list(*, limit: int | None = None, offset: int | None = None) -> Call[list[Session]]:
    """The owner's sessions, most recently active first. Reads only."""
    return _read("sessions_list", "/sessions", list[Session], {"limit": limit, "offset": offset})


def session_create(
    *,
    external_id: str | None = None,
    scope: str | None = None,
    idempotency_key: str | None = None,
) -> Call[Session]:
    """Open a conversation session for the owner. With ``external_id`` (your own
    conversation id), a second call returns the first session instead of a new one."""
    return _write(
        "sessions_create",
        "/sessions",
        Session,
        body=_fields(external_id=external_id, scope=scope),
        idempotency_key=idempotency_key,
    )


def session_get(session_id: str) -> Call[Session]:
    """One session. Reads only."""
    return _read("sessions_get", "/sessions/{session_id}", Session, session_id=session_id)


def session_close(session_id: str, *, idempotency_key: str | None = None) -> Call[Session]:
    """Close a session: no more messages or runs, and formation may consolidate it at
    once (a boundary) instead of waiting for it to go quiet."""
    return _write(
        "sessions_close",
        "/sessions/{session_id}/close",
        Session,
        idempotency_key=idempotency_key,
        session_id=session_id,
    )


def session_erase(session_id: str, *, idempotency_key: str | None = None) -> Call[Session]:
    """Erase every message of the session and the memories formed from them. Cannot be
    undone."""
    return _write(
        "sessions_erase",
        "/sessions/{session_id}/erase",
        Session,
        idempotency_key=idempotency_key,
        session_id=session_id,
    )


# -- events -----------------------------------------------------------------------------


def event_list(
    session_id: str,
    *,
    after_sequence: int | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> Call[list[Event]]:
    """A session's event log in order (messages, runs, formation flags). Reads only."""
    return _read(
        "events_list",
        "/sessions/{session_id}/events",
        list[Event],
        {"after_sequence": after_sequence, "limit": limit, "offset": offset},
        session_id=session_id,
    )


def event_append(
    session_id: str,
    parts: str | Sequence[Mapping[str, str]],
    *,
    type: MessageType = "user.message.created",
    author_name: str | None = None,
    external_id: str | None = None,
    occurred_at: Time | None = None,
    idempotency_key: str | None = None,
) -> Call[Event]:
    """Append a message to the session's log (the owner's own words verbatim). ``parts``
    is the text, or a list of ``{"type": "text" | "caption", "text": ...}``. Nothing is
    formed from it until a run completes or the session closes."""
    if isinstance(parts, str):
        parts = [{"type": "text", "text": parts}]
    return _write(
        "events_append",
        "/sessions/{session_id}/events",
        Event,
        body=_fields(
            type=type,
            parts=[dict(part) for part in parts],
            author_name=author_name,
            external_id=external_id,
            occurred_at=occurred_at,
        ),
        idempotency_key=idempotency_key,
        session_id=session_id,
    )


def event_erase(event_id: str, *, idempotency_key: str | None = None) -> Call[Event]:
    """Erase one message's text and the memories formed from it. Cannot be undone."""
    return _write(
        "events_erase",
        "/events/{event_id}/erase",
        Event,
        idempotency_key=idempotency_key,
        event_id=event_id,
    )


# -- runs -------------------------------------------------------------------------------


def run_create(session_id: str, *, idempotency_key: str | None = None) -> Call[Run]:
    """Start an assistant run (one turn) in an open session."""
    return _write(
        "runs_create",
        "/sessions/{session_id}/runs",
        Run,
        idempotency_key=idempotency_key,
        session_id=session_id,
    )


def run_get(run_id: str) -> Call[Run]:
    """One run. Reads only."""
    return _read("runs_get", "/runs/{run_id}", Run, run_id=run_id)


def run_complete(run_id: str, *, idempotency_key: str | None = None) -> Call[Run]:
    """Complete a run: formation is requested for the session, and runs in the
    background once the conversation has been quiet for a while."""
    return _write(
        "runs_complete",
        "/runs/{run_id}/complete",
        Run,
        idempotency_key=idempotency_key,
        run_id=run_id,
    )


def run_fail(
    run_id: str, *, error_code: str | None = None, idempotency_key: str | None = None
) -> Call[Run]:
    """Mark a run failed (with your own ``error_code``); formation is still requested,
    since the owner's messages stand."""
    return _write(
        "runs_fail",
        "/runs/{run_id}/fail",
        Run,
        body=_fields(error_code=error_code),
        idempotency_key=idempotency_key,
        run_id=run_id,
    )


def run_wait(run_id: str, *, idempotency_key: str | None = None) -> Call[Run]:
    """Mark a run waiting (for a tool or the person); requests no formation."""
    return _write(
        "runs_wait", "/runs/{run_id}/wait", Run, idempotency_key=idempotency_key, run_id=run_id
    )


# -- memories ---------------------------------------------------------------------------


def memory_list(
    *,
    status: str | Sequence[str] | None = None,
    type: str | Sequence[str] | None = None,
    needs_review: bool | None = None,
    changed_since: Time | None = None,
    limit: int | None = None,
    offset: int | None = None,
    include: str | Sequence[str] | None = None,
    derived_limit: int | None = None,
    derived_offset: int | None = None,
) -> Call[MemoryPage]:
    """A page of the owner's memories (filters take one value or several). With
    ``changed_since`` (a cursor from ``next_changed_since``, or a time): those changed
    after it, oldest change first. ``include="derived"`` adds derived memories. Reads
    only."""
    return _read(
        "memories_list",
        "/memories",
        MemoryPage,
        {
            "status": status,
            "type": type,
            "needs_review": needs_review,
            "changed_since": changed_since,
            "limit": limit,
            "offset": offset,
            "include": include,
            "derived_limit": derived_limit,
            "derived_offset": derived_offset,
        },
    )


def remember(
    statement: str,
    *,
    type: MemoryType | None = None,
    subject: str | None = None,
    polarity: Polarity | None = None,
    confidence: float | None = None,
    scope: str | None = None,
    portability: Portability | None = None,
    sensitivity: Sensitivity | None = None,
    valid_from: Time | None = None,
    valid_until: Time | None = None,
    expires_at: Time | None = None,
    source_event_ids: Sequence[str] | None = None,
    idempotency_key: str | None = None,
) -> Call[Memory]:
    """Add a memory the owner stated explicitly: active at once, with explicit
    authority. The same statement and subject already held as an active explicit memory
    returns that memory; an equal memory that was only inferred is superseded by the new
    one; any other memory, of the same ``subject`` or not, is left as it is (changing one
    is ``memory_correct``). Statements holding a secret or an instruction to the
    assistant are refused (``ValidationError`` with ``details["reason"]``)."""
    return _write(
        "memories_remember",
        "/memories",
        Memory,
        body=_fields(
            statement=statement,
            type=type,
            subject=subject,
            polarity=polarity,
            confidence=confidence,
            scope=scope,
            portability=portability,
            sensitivity=sensitivity,
            valid_from=valid_from,
            valid_until=valid_until,
            expires_at=expires_at,
            source_event_ids=list(source_event_ids) if source_event_ids is not None else None,
        ),
        idempotency_key=idempotency_key,
    )


def memory_get(memory_id: str) -> Call[Memory]:
    """One memory with its sources. Reads only."""
    return _read("memories_get", "/memories/{memory_id}", Memory, memory_id=memory_id)


def memory_delete(
    memory_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[Memory]:
    """Erase a memory and the versions it corrected: their text and excerpts are
    removed, a tombstone stays, and a fence stops the same claim being formed again from
    the same messages. Refused (``ConflictError``) if it changed since
    ``expected_revision``. Cannot be undone."""
    return _write(
        "memories_delete",
        "/memories/{memory_id}",
        Memory,
        method="DELETE",
        params={"expected_revision": expected_revision},
        idempotency_key=idempotency_key,
        memory_id=memory_id,
    )


def memory_confirm(
    memory_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[Memory]:
    """The owner confirms a provisional memory: it becomes active."""
    return _write(
        "memories_confirm",
        "/memories/{memory_id}/confirm",
        Memory,
        body={"expected_revision": expected_revision},
        idempotency_key=idempotency_key,
        memory_id=memory_id,
    )


def memory_reject(
    memory_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[Memory]:
    """The owner rejects a memory: it leaves recall, and formation will not propose the
    same claim again."""
    return _write(
        "memories_reject",
        "/memories/{memory_id}/reject",
        Memory,
        body={"expected_revision": expected_revision},
        idempotency_key=idempotency_key,
        memory_id=memory_id,
    )


def memory_correct(
    memory_id: str,
    *,
    expected_revision: int,
    statement: str,
    subject: str | None = None,
    polarity: Polarity | None = None,
    sensitivity: Sensitivity | None = None,
    valid_from: Time | None = None,
    valid_until: Time | None = None,
    expires_at: Time | None = None,
    idempotency_key: str | None = None,
) -> Call[Memory]:
    """Correct a memory: returns a new memory (new id) that supersedes it; the old one
    is kept as ``superseded`` in its history."""
    return _write(
        "memories_correct",
        "/memories/{memory_id}/correct",
        Memory,
        body=_fields(
            expected_revision=expected_revision,
            statement=statement,
            subject=subject,
            polarity=polarity,
            sensitivity=sensitivity,
            valid_from=valid_from,
            valid_until=valid_until,
            expires_at=expires_at,
        ),
        idempotency_key=idempotency_key,
        memory_id=memory_id,
    )


def memory_history(memory_id: str) -> Call[History]:
    """Every version of a memory and every change to it. Reads only."""
    return _read("memories_history", "/memories/{memory_id}/history", History, memory_id=memory_id)


# -- recall -----------------------------------------------------------------------------


def recall(
    query: str = "",
    *,
    types: Sequence[MemoryType] | None = None,
    statuses: Sequence[LiveStatus] | None = None,
    since: Time | None = None,
    include: Sequence[RecallInclude] | None = None,
    limit: int | None = None,
    budget_chars: int | None = None,
    context_turns: int | None = None,
) -> Call[Recall]:
    """The owner's active and provisional memories that best match ``query``, within a
    character budget, each with its sources; ``include=["messages"]`` adds original
    messages, ``["derived"]`` derived memories. ``context_turns`` (0 to 3) gives each
    message up to that many turns before and after it in its conversation, as its
    ``context``. Reads only (a POST that writes nothing)."""
    return Call(
        "recall",
        "POST",
        "/recall",
        Recall,
        body=_fields(
            query=query,
            types=list(types) if types is not None else None,
            statuses=list(statuses) if statuses is not None else None,
            since=since,
            include=list(include) if include is not None else None,
            limit=limit,
            budget_chars=budget_chars,
            context_turns=context_turns,
        ),
        reads=True,
    )


# -- account ----------------------------------------------------------------------------


def export() -> Call[dict[str, Any]]:
    """Everything of the owner as one JSON document: sessions with their logs, memories,
    derived memories, operations, receipts. Reads only."""
    return _read("export", "/export", dict[str, Any])


def account_erasure_request() -> Call[ErasureRequest]:
    """First step of erasing the owner's whole account: a token that confirms it within
    ten minutes. Erases nothing yet."""
    return Call("account_erasure_request", "POST", "/account/erasure", ErasureRequest)


def account_erasure_confirm(token: str) -> Call[Erasure]:
    """Irreversibly erase the owner: every session, message, memory and token (this
    client's token stops working). Returns counts of what was deleted."""
    return Call(
        "account_erasure_confirm",
        "POST",
        "/account/erasure/confirm",
        Erasure,
        body={"token": token},
    )


# -- tokens -----------------------------------------------------------------------------


def token_pause(token_id: str, *, idempotency_key: str | None = None) -> Call[Token]:
    """Pause one of the owner's API tokens: every request made with it is refused until it
    is resumed. Nothing is deleted. A paused token cannot resume itself."""
    return _write(
        "tokens_pause",
        "/tokens/{token_id}/pause",
        Token,
        idempotency_key=idempotency_key,
        token_id=token_id,
    )


def token_resume(token_id: str, *, idempotency_key: str | None = None) -> Call[Token]:
    """Resume one of the owner's paused API tokens: it works again at once."""
    return _write(
        "tokens_resume",
        "/tokens/{token_id}/resume",
        Token,
        idempotency_key=idempotency_key,
        token_id=token_id,
    )


def access_list(
    *,
    token: str | None = None,
    memory: str | None = None,
    since: Time | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> Call[list[AccessRecord]]:
    """Which of the owner's tokens read what, newest first: one record per read made with a
    token, with the ids of the memories, messages and derived memories it returned; only
    those of ``token`` (its id), those that returned ``memory``, those at or after ``since``
    when given. Needs a token that reaches everything. Reads only, and is not itself recorded."""
    return _read(
        "access_list",
        "/access",
        list[AccessRecord],
        {"token": token, "memory": memory, "since": since, "limit": limit, "offset": offset},
    )


# -- challenges -------------------------------------------------------------------------


def challenge_list(
    *,
    state: ChallengeState | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> Call[ChallengePage]:
    """What may have changed: proposals formation would not let retire one of the owner's
    memories on its own (an explicit one, or one that more messages support than the
    proposal cites), newest first, each beside that memory with both sides' sources;
    ``open`` ones unless ``state`` says ``kept`` or ``replaced``. Recall keeps the memory
    until the owner decides. Needs a token that reaches everything. Reads only."""
    return _read(
        "challenges_list",
        "/challenges",
        ChallengePage,
        {"state": state, "limit": limit, "offset": offset},
    )


def challenge_get(challenge_id: str) -> Call[Challenge]:
    """One challenge with both sides. Reads only."""
    return _read(
        "challenges_get", "/challenges/{challenge_id}", Challenge, challenge_id=challenge_id
    )


def challenge_keep(challenge_id: str, *, idempotency_key: str | None = None) -> Call[Challenge]:
    """The owner keeps the memory as it is: the challenge closes (a provisional memory is
    confirmed), and the same proposal read again from the same messages does not reopen
    it. Repeating it changes nothing; replacing afterwards is a ``ConflictError``."""
    return _write(
        "challenges_keep",
        "/challenges/{challenge_id}/keep",
        Challenge,
        idempotency_key=idempotency_key,
        challenge_id=challenge_id,
    )


def challenge_replace(challenge_id: str, *, idempotency_key: str | None = None) -> Call[Challenge]:
    """The owner replaces the memory with the proposal: it becomes an explicit memory of
    theirs (``replacement``), citing the proposal's messages, and supersedes the memory
    (or retracts it, for a proposal that it no longer holds), which stays in its history.
    Repeating it changes nothing; keeping afterwards is a ``ConflictError``."""
    return _write(
        "challenges_replace",
        "/challenges/{challenge_id}/replace",
        Challenge,
        idempotency_key=idempotency_key,
        challenge_id=challenge_id,
    )


# -- reconsolidation (while the service's reconsolidation surface is on) -------------------


def operation_list(
    *,
    kind: OperationKind | None = None,
    state: OperationState | None = None,
    changed_since: Time | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> Call[OperationPage]:
    """What reconsolidation did for the owner, newest first (or, with
    ``changed_since``, changed after it, oldest first). Reads only."""
    return _read(
        "operations_list",
        "/operations",
        OperationPage,
        {
            "kind": kind,
            "state": state,
            "changed_since": changed_since,
            "limit": limit,
            "offset": offset,
        },
    )


def operation_get(operation_id: str) -> Call[OperationDetail]:
    """One operation: what it read, what it derived, and the owner's receipts. Reads
    only."""
    return _read(
        "operations_get",
        "/operations/{operation_id}",
        OperationDetail,
        operation_id=operation_id,
    )


def operation_undo_preview(operation_id: str) -> Call[UndoPreview]:
    """What undoing the operation would restore, could not restore, and set aside.
    Changes nothing."""
    return _read(
        "operations_undo_preview",
        "/operations/{operation_id}/undo-preview",
        UndoPreview,
        operation_id=operation_id,
    )


def operation_undo(
    operation_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[Undo]:
    """Undo a merge or a summary at the revision its preview showed: the originals show
    on their own again and its derived memories are set aside."""
    return _write(
        "operations_undo",
        "/operations/{operation_id}/undo",
        Undo,
        body={"expected_revision": expected_revision},
        idempotency_key=idempotency_key,
        operation_id=operation_id,
    )


def derived_get(derived_id: str) -> Call[DerivedMemory]:
    """One derived memory. Reads only."""
    return _read("derived_get", "/derived/{derived_id}", DerivedMemory, derived_id=derived_id)


def derived_delete(
    derived_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[DerivedControl]:
    """Delete a derived memory: its text is erased and the same claim is never derived
    again. The originals do not change."""
    return _write(
        "derived_delete",
        "/derived/{derived_id}",
        DerivedControl,
        method="DELETE",
        params={"expected_revision": expected_revision},
        idempotency_key=idempotency_key,
        derived_id=derived_id,
    )


def _derived_control(
    action: str, derived_id: str, body: dict[str, Any], idempotency_key: str | None
) -> Call[DerivedControl]:
    return _write(
        f"derived_{action}",
        f"/derived/{{derived_id}}/{action}",
        DerivedControl,
        body=body,
        idempotency_key=idempotency_key,
        derived_id=derived_id,
    )


def derived_review(
    derived_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[DerivedControl]:
    """Mark a derived memory reviewed; nothing else changes."""
    body = {"expected_revision": expected_revision}
    return _derived_control("review", derived_id, body, idempotency_key)


def derived_restrict(
    derived_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[DerivedControl]:
    """Keep a derived memory out of recall and withhold its text; nothing is erased."""
    body = {"expected_revision": expected_revision}
    return _derived_control("restrict", derived_id, body, idempotency_key)


def derived_unrestrict(
    derived_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[DerivedControl]:
    """Lift a restriction."""
    body = {"expected_revision": expected_revision}
    return _derived_control("unrestrict", derived_id, body, idempotency_key)


def derived_reject(
    derived_id: str, *, expected_revision: int, idempotency_key: str | None = None
) -> Call[DerivedControl]:
    """Not so: the derived memory's text is erased and the same claim is never derived
    again. The originals do not change."""
    body = {"expected_revision": expected_revision}
    return _derived_control("reject", derived_id, body, idempotency_key)


def derived_promote(
    derived_id: str,
    *,
    expected_revision: int,
    statement: str | None = None,
    idempotency_key: str | None = None,
) -> Call[DerivedControl]:
    """Assert a hypothesis: it becomes an explicit memory of the owner (``statement``, or
    the connection it names), and is never guessed again."""
    body = _fields(expected_revision=expected_revision, statement=statement)
    return _derived_control("promote", derived_id, body, idempotency_key)


def summary_get(summary_id: str) -> Call[SummaryJournal]:
    """A summary's evidence journal: each claim with the originals that support it.
    Reads only."""
    return _read("summaries_get", "/summaries/{summary_id}", SummaryJournal, summary_id=summary_id)


# -- anything else -------------------------------------------------------------------------


def request(
    method: str,
    path: str,
    *,
    params: Mapping[str, Any] | None = None,
    json: Any = None,
    content: bytes | None = None,
    headers: Mapping[str, str] | None = None,
    idempotency_key: str | None = None,
) -> Call[Any]:
    """Any route of the API (``path`` below ``/api/v1``), answered as decoded JSON. A
    method other than GET and HEAD is sent with an Idempotency-Key."""
    reads = method.upper() in ("GET", "HEAD")
    return Call(
        "",
        method.upper(),
        path.replace("{", "{{").replace("}", "}}"),
        Any,
        params=params,
        body=json,
        content=content,
        headers=dict(headers or {}),
        reads=reads,
        keyed=not reads,
        idempotency_key=idempotency_key,
    )


# The operations of the API, in the order of the service's schema: each client exposes
# every one as a method of the same name.
OPERATIONS = (
    access_list,
    account_erasure_request,
    account_erasure_confirm,
    challenge_list,
    challenge_get,
    challenge_keep,
    challenge_replace,
    token_pause,
    token_resume,
    derived_get,
    derived_delete,
    derived_promote,
    derived_reject,
    derived_restrict,
    derived_review,
    derived_unrestrict,
    event_erase,
    export,
    memory_list,
    remember,
    memory_get,
    memory_delete,
    memory_confirm,
    memory_correct,
    memory_history,
    memory_reject,
    operation_list,
    operation_get,
    operation_undo,
    operation_undo_preview,
    recall,
    run_get,
    run_complete,
    run_fail,
    run_wait,
    session_list,
    session_create,
    session_get,
    session_close,
    session_erase,
    event_list,
    event_append,
    run_create,
    summary_get,
)
