"""Sessions, their append-only event logs, and runs."""

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any, cast

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import ReverieError, conflict, validation_error
from core.ids import parse_public_id
from memory.enums import (
    MESSAGE_AUTHOR_KIND,
    RUN_TERMINAL_STATUSES,
    AuthorKind,
    EventType,
    PartType,
    RunStatus,
    is_valid_scope,
)
from memory.models import Event, Run, Session
from memory.reach import FULL_REACH, Reach
from memory.screening import classify_sensitivity
from memory.selectors.sessions import run_get, session_get

logger = logging.getLogger(__name__)

EXTERNAL_ID_MAX_CHARS = 200
AUTHOR_NAME_MAX_CHARS = 120


def _check_external_id(external_id: object, field: str = "external_id") -> str | None:
    if external_id is None:
        return None
    if not isinstance(external_id, str) or not external_id.strip():
        raise validation_error(f"{field} must be a non-empty string.", field=field)
    if len(external_id) > EXTERNAL_ID_MAX_CHARS:
        raise validation_error(
            f"{field} is longer than {EXTERNAL_ID_MAX_CHARS} characters.",
            field=field,
            limit=EXTERNAL_ID_MAX_CHARS,
        )
    return external_id


def _check_aware(value: object, field: str) -> datetime | None:
    if value is not None and (not isinstance(value, datetime) or timezone.is_naive(value)):
        raise validation_error(f"{field} must be a datetime with a timezone.", field=field)
    return value


def session_create(
    *,
    principal: User,
    scope: str | None = None,
    external_id: object = None,
    started_at: datetime | None = None,
    reach: Reach = FULL_REACH,
) -> Session:
    """Open a session in ``scope`` (the reach's own scope when None).

    An ``external_id`` names a conversation within its scope: a second call with it
    in the same scope returns the first session, and the same id in another scope is
    another conversation, so creating one tells nothing of the other scopes.
    """
    scope = reach.write_scope(scope)
    if not is_valid_scope(scope):
        raise validation_error("scope must be 'principal' or 'assistant:<slug>'.", field="scope")
    external_id = _check_external_id(external_id)
    started_at = _check_aware(started_at, "started_at") or timezone.now()
    with principal_transaction(principal):
        if external_id is None:
            return Session.objects.create(owner=principal, scope=scope, last_activity_at=started_at)
        named = Session.objects.filter(owner=principal, scope=scope, external_id=external_id)
        if (existing := named.first()) is not None:
            return existing
        try:
            # A savepoint: two requests opening the same conversation at once both find
            # none, and the unique index lets one create it; the other takes that one.
            with transaction.atomic():
                return Session.objects.create(
                    owner=principal,
                    scope=scope,
                    external_id=external_id,
                    last_activity_at=started_at,
                )
        except IntegrityError:
            return named.get()


def session_close(*, principal: User, session_id: object, reach: Reach = FULL_REACH) -> Session:
    """Close a session: an immediate formation boundary. Closing twice changes nothing."""
    reach.check_write()
    with principal_transaction(principal):
        session = session_get(
            principal=principal, session_id=session_id, for_update=True, reach=reach
        )
        if session.closed_at is not None:
            return session
        now = timezone.now()
        _append(session, event_type=EventType.SESSION_CLOSED, author_kind=AuthorKind.SYSTEM)
        # Closing is an immediate boundary: the flag is due at once.
        _request_formation(
            session,
            derivation_key=f"formation:close:{session.public_id}",
            reason="session_closed",
            not_before=now,
        )
        session.closed_at = now
        session.save(update_fields=["closed_at", "last_activity_at"])
        return session


def _check_parts(parts: object) -> tuple[list[dict[str, str]], str]:
    """Validate message parts; return them normalised and their joined text."""
    limits = settings.REVERIE_LIMITS
    if not isinstance(parts, (list, tuple)) or not parts:
        raise validation_error("parts must be a non-empty list.", field="parts")
    if len(parts) > limits["event_max_parts"]:
        raise validation_error(
            f"At most {limits['event_max_parts']} parts per event.",
            field="parts",
            limit=limits["event_max_parts"],
        )
    clean: list[dict[str, str]] = []
    for index, part in enumerate(parts):
        field = f"parts[{index}]"
        if not isinstance(part, dict):
            raise validation_error(f"{field} must be an object.", field=field)
        unknown = sorted(set(part) - {"type", "text"})
        if unknown:
            raise validation_error(
                f"{field} has unknown fields: {', '.join(unknown)}.", field=field
            )
        if part.get("type", PartType.TEXT) not in PartType.values:
            raise validation_error(
                f"{field}.type must be one of {', '.join(PartType.values)}.",
                field=f"{field}.type",
            )
        text = part.get("text")
        if not isinstance(text, str):
            raise validation_error(f"{field}.text must be a string.", field=f"{field}.text")
        clean.append({"type": part.get("type", PartType.TEXT), "text": text})
    if not any(part["text"].strip() for part in clean):
        raise validation_error("A message needs some text.", field="parts")
    size = sum(len(part["text"].encode()) for part in clean)
    if size > limits["event_max_bytes"]:
        raise ReverieError(
            "payload_too_large",
            f"The event's text is {size} bytes; the limit is {limits['event_max_bytes']}.",
            field="parts",
            limit=limits["event_max_bytes"],
        )
    return clean, "\n".join(part["text"] for part in clean if part["text"])


def _append(
    session: Session,
    *,
    event_type: str,
    author_kind: str,
    author_name: str = "",
    parts: Sequence[dict[str, str]] = (),
    text: str = "",
    **fields: Any,
) -> Event:
    """Append to a session the caller has locked; return the new event.

    The lock on the session row (``select_for_update``; on SQLite the
    IMMEDIATE transaction) is what keeps sequences gapless when two requests
    append at once: each takes the next number only after the other committed.
    """
    session.last_sequence += 1
    session.last_activity_at = timezone.now()
    Session.objects.filter(pk=session.pk).update(
        last_sequence=session.last_sequence, last_activity_at=session.last_activity_at
    )
    return _event_create(
        session,
        event_type=event_type,
        author_kind=author_kind,
        author_name=author_name,
        parts=parts,
        text=text,
        **fields,
    )


def _event_create(
    session: Session,
    *,
    event_type: str,
    author_kind: str,
    author_name: str,
    parts: Sequence[dict[str, str]],
    text: str,
    **fields: Any,
) -> Event:
    """The event at the sequence number ``session`` has just taken, labelled by its text
    as a memory saying the same would be (a system event has none: ordinary)."""
    return Event.objects.create(
        owner_id=session.owner_id,
        session=session,
        sequence=session.last_sequence,
        event_type=event_type,
        author_kind=author_kind,
        author_name=author_name,
        parts=list(parts),
        text=text,
        sensitivity=classify_sensitivity(text),
        occurred_at=fields.pop("occurred_at", None) or session.last_activity_at,
        **fields,
    )


def system_event_append(
    *, principal: User, session_id: object, event_type: str, payload: dict[str, Any]
) -> Event:
    """Append a content-free system event (``memory.*``) to a session's log, open or closed.

    Unlike a message it is not activity: the session's idle clock is left alone,
    so formation's idle window still counts from the last message.
    """
    with principal_transaction(principal):
        session = session_get(principal=principal, session_id=session_id, for_update=True)
        session.last_sequence += 1
        Session.objects.filter(pk=session.pk).update(last_sequence=session.last_sequence)
        return _event_create(
            session,
            event_type=event_type,
            author_kind=AuthorKind.SYSTEM,
            author_name="",
            parts=(),
            text="",
            payload=payload,
            occurred_at=timezone.now(),
        )


def _claim_sequence(principal: User, session_id: object, reach: Reach) -> Session | None:
    """Take the next sequence number of the principal's open session ``session_id`` that
    ``reach`` sees in one statement, which also locks the session until commit; return
    the session as updated, or None when there is no such open session.

    The same as locking the session, checking it and updating it (``_append``), in
    one round trip instead of three: the ingest path runs it for every message.
    """
    meta = Session._meta
    public_id = meta.get_field("public_id").get_db_prep_value(
        parse_public_id(session_id, "session_id"), connection
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    scoped, scopes = "", []
    if reach.scopes is not None:
        scoped = f" AND scope IN ({', '.join(['%s'] * len(reach.scopes))})"
        scopes = list(reach.scopes)
    sessions = Session.objects.raw(
        f"UPDATE {meta.db_table} SET last_sequence = last_sequence + 1, last_activity_at = %s "
        f"WHERE owner_id = %s AND public_id = %s AND closed_at IS NULL{scoped} RETURNING *",
        [now, principal.pk, public_id, *scopes],
    )
    return next(iter(sessions), None)


def event_append(
    *,
    principal: User,
    session_id: object,
    event_type: str,
    parts: object,
    author_name: str = "",
    external_id: object = None,
    occurred_at: datetime | None = None,
    reach: Reach = FULL_REACH,
) -> Event:
    """Append a message to a session's log.

    Only message events come from callers; run, session and memory events are
    appended by the services that own them. With ``external_id``, a replay of
    the same message returns the original event, and a different message under
    the same id is a conflict.

    The message is labelled by what its text says (``classify_sensitivity``). A
    reach kept from sensitive things may append a sensitive message (it is the
    conversation it takes part in, and it holds the words already) and is answered
    with it, but it never reads it back: reads leave it out.
    """
    reach.check_write()
    if not isinstance(event_type, str) or event_type not in MESSAGE_AUTHOR_KIND:
        raise validation_error(
            "event_type must be a message type.",
            field="event_type",
            allowed=[str(t) for t in MESSAGE_AUTHOR_KIND],
        )
    parts, text = _check_parts(parts)
    external_id = _check_external_id(external_id)
    occurred_at = _check_aware(occurred_at, "occurred_at")
    if not isinstance(author_name, str) or len(author_name) > AUTHOR_NAME_MAX_CHARS:
        raise validation_error(
            f"author_name must be a string of at most {AUTHOR_NAME_MAX_CHARS} characters.",
            field="author_name",
        )
    message: dict[str, Any] = {
        "event_type": event_type,
        "author_kind": MESSAGE_AUTHOR_KIND[event_type],
        "author_name": author_name,
        "parts": parts,
        "text": text,
        "occurred_at": occurred_at,
    }
    with principal_transaction(principal):
        # A message without an external id needs no look at the session's
        # events first: one statement locks the session and numbers the message.
        if external_id is None and (session := _claim_sequence(principal, session_id, reach)):
            event = _event_create(session, **message)
        else:
            session = session_get(
                principal=principal, session_id=session_id, for_update=True, reach=reach
            )
            if external_id is not None:
                existing = Event.objects.filter(session=session, external_id=external_id).first()
                if existing is not None:
                    if existing.event_type != event_type or existing.parts != parts:
                        raise conflict(
                            "Another event already has this external_id.", field="external_id"
                        )
                    return existing
            if session.closed_at is not None:
                raise conflict("The session is closed.", field="session_id")
            event = _append(session, external_id=external_id, **message)
        if event_type == EventType.USER_MESSAGE:
            formation_request_for_messages(session)
        return event


def run_create(*, principal: User, session_id: object, reach: Reach = FULL_REACH) -> Run:
    """Start an assistant run in an open session."""
    reach.check_write()
    with principal_transaction(principal):
        session = session_get(
            principal=principal, session_id=session_id, for_update=True, reach=reach
        )
        if session.closed_at is not None:
            raise conflict("The session is closed.", field="session_id")
        return Run.objects.create(owner=principal, session=session)


_RUN_EVENT: dict[str, str] = {
    RunStatus.COMPLETED: EventType.RUN_COMPLETED,
    RunStatus.FAILED: EventType.RUN_FAILED,
    RunStatus.WAITING: EventType.RUN_WAITING,
}


def _run_transition(
    *, principal: User, run_id: object, status: str, reach: Reach, error_code: str = ""
) -> Run:
    reach.check_write()
    with principal_transaction(principal):
        run = run_get(principal=principal, run_id=run_id, for_update=True, reach=reach)
        if run.status in RUN_TERMINAL_STATUSES:
            raise conflict(f"The run has already {run.status}.", status=run.status)
        if run.status == status:  # waiting twice
            return run
        session = session_get(
            principal=principal, session_id=run.session.public_id, for_update=True
        )
        run.status = status
        run.error_code = error_code
        if status in RUN_TERMINAL_STATUSES:
            run.finished_at = timezone.now()
        run.save(update_fields=["status", "error_code", "finished_at", "updated_at"])
        payload = {"run_id": str(run.public_id)}
        if error_code:
            payload["error_code"] = error_code
        _append(
            session,
            event_type=_RUN_EVENT[status],
            author_kind=AuthorKind.SYSTEM,
            payload=payload,
        )
        if status in RUN_TERMINAL_STATUSES:
            # After the terminal transaction commits, never inside it: the
            # flag must not exist for a run whose end was rolled back, and its
            # failure must not undo the run's end.
            transaction.on_commit(
                partial(
                    _request_formation_after_run,
                    principal=principal,
                    session_id=session.public_id,
                    run_id=run.public_id,
                    reason=f"run_{status}",
                )
            )
        return run


def _request_formation(
    session: Session, *, derivation_key: str, reason: str, not_before: datetime
) -> Event | None:
    """Flag a locked session for formation, once per derivation key."""
    if Event.objects.filter(derivation_key=derivation_key).exists():
        return None
    return _append(
        session,
        event_type=EventType.FORMATION_REQUESTED,
        author_kind=AuthorKind.SYSTEM,
        derivation_key=derivation_key,
        payload={"reason": reason, "not_before": not_before.isoformat()},
    )


def _request_formation_after_run(
    *, principal: User, session_id: object, run_id: object, reason: str
) -> None:
    """The post-run hook: flag the session, due once it has been idle for the window.

    Idempotent (the derivation key names the run), and it never raises: the
    run has ended whatever happens here.
    """
    idle = timedelta(seconds=settings.REVERIE_FORMATION["idle_seconds"])
    try:
        with principal_transaction(principal):
            session = session_get(principal=principal, session_id=session_id, for_update=True)
            _request_formation(
                session,
                derivation_key=f"formation:run:{run_id}",
                reason=reason,
                not_before=timezone.now() + idle,
            )
    except IntegrityError:
        # A concurrent retry of the same hook appended the flag first.
        logger.info("formation flag for run %s already present", run_id)
    except Exception:
        logger.exception("could not flag session %s for formation after run %s", session_id, run_id)


def _flag_and_first_message(session: Session) -> tuple[int | None, int | None]:
    """The sequence of the session's last formation flag and of its first user message past
    its watermark (None where there is none), in one statement: every user message pays it.

    Raw SQL, as ``_claim_sequence``: the ORM's building of this query cost more than
    PostgreSQL's running it. A statement of its own, after the lock was taken, so that it
    reads a watermark committed while the append waited for that lock.
    """
    events = Event._meta.db_table
    # The formation app's model, reached by the relation: the memory app imports no app above it.
    watermarks = cast(type[Model], Session.watermark.related.related_model)._meta.db_table
    flag, user = EventType.FORMATION_REQUESTED.value, EventType.USER_MESSAGE.value
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(CASE WHEN event_type = %s THEN sequence END), "
            f"MIN(CASE WHEN event_type = %s THEN sequence END) FROM {events} "
            f"WHERE session_id = %s AND event_type IN (%s, %s) AND sequence > "
            f"COALESCE((SELECT sequence FROM {watermarks} WHERE session_id = %s), 0)",
            [flag, user, session.pk, flag, user, session.pk],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else (None, None)


def formation_request_for_messages(session: Session) -> Event | None:
    """Flag a locked session whose user messages since its watermark no flag covers yet.

    A conversation that only appends messages (no run, never closed) forms too:
    its first new user message flags it, due once the session has been idle for
    the window, as a run's flag is. Later messages find that flag pending and add
    nothing, so a burst of messages costs one flag. The caller holds the session's
    row lock, which a consolidation also takes before it commits a watermark: a
    message appended while it worked is either seen by it or sees its watermark.
    """
    flag, first = _flag_and_first_message(session)
    if flag is not None or first is None:
        return None
    idle = timedelta(seconds=settings.REVERIE_FORMATION["idle_seconds"])
    return _request_formation(
        session,
        derivation_key=f"formation:messages:{session.public_id}:{first}",
        reason="messages",
        not_before=timezone.now() + idle,
    )


def run_complete(*, principal: User, run_id: object, reach: Reach = FULL_REACH) -> Run:
    """Mark a run completed (terminal) and log ``run.completed``."""
    return _run_transition(
        principal=principal, run_id=run_id, status=RunStatus.COMPLETED, reach=reach
    )


def run_fail(
    *, principal: User, run_id: object, error_code: str = "", reach: Reach = FULL_REACH
) -> Run:
    """Mark a run failed (terminal) and log ``run.failed`` with a short error code."""
    if not isinstance(error_code, str) or len(error_code) > 80:
        raise validation_error("error_code must be at most 80 characters.", field="error_code")
    return _run_transition(
        principal=principal,
        run_id=run_id,
        status=RunStatus.FAILED,
        error_code=error_code,
        reach=reach,
    )


def run_wait(*, principal: User, run_id: object, reach: Reach = FULL_REACH) -> Run:
    """Mark a run as waiting (for the user or a tool); it can still complete or fail."""
    return _run_transition(
        principal=principal, run_id=run_id, status=RunStatus.WAITING, reach=reach
    )
