"""Recording who read the owner's memories, and forgetting it after the retention.

Every read made with an API token records, in the request that answers it, which
token read what through which route (``memory.models.access``). An item is recorded
when the answer carries it: a memory (with its sources' excerpts, which are part of
it), a message, a derived memory. A bare reference, an id with a status and no text
(an operation's inputs, a derived memory's ``memory_ids``), is not a read of it.

Recording must never cost the read its answer: a record that cannot be written is
given up, and the failure is counted per day for operators, without anything that
says whose read it was. When the call itself broke the read's transaction, which then
takes no more writes, the failure is counted once that transaction has ended
(``access_failures_settle``, called by the request's principal middleware).
"""

import contextvars
import logging
import uuid
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from psycopg.pq import TransactionStatus

from accounts.models import ApiToken, User
from common.models import new_public_id
from common.principal import discovery_context, principal_context, principal_transaction
from memory.models import AccessRecord, AccessRecordFailure

from .batches import delete_in_batches

logger = logging.getLogger(__name__)

# Failures of this request (context) not counted yet: their transaction broke.
_uncounted = contextvars.ContextVar("access_failures_uncounted", default=0)


def access_record(
    *,
    principal: User,
    token: ApiToken | None,
    route: str,
    request_id: object,
    memories: Iterable[object] = (),
    messages: Iterable[object] = (),
    derived: Iterable[object] = (),
) -> int | None:
    """Record that ``token`` read these memories, messages and derived memories (public
    ids) of ``principal`` through ``route`` (a route name) in request ``request_id``.

    Returns the record's id, or None when there is nothing to record (no token: the
    owner's own browser session) or writing it failed. Never raises: the read answers
    anyway.
    """
    if token is None or not settings.REVERIE_ACCESS["record"]:
        return None
    try:
        record: _RecordFields = {
            "owner_id": principal.pk,
            "public_id": new_public_id(),
            "token_id": token.pk,
            "route": route[:60],
            "request_id": str(request_id)[:64],
            "created_at": timezone.now(),
            "memory_ids": _distinct(memories),
            "message_ids": _distinct(messages),
            "derived_ids": _distinct(derived),
        }
        return _record_write(principal, record)
    # Anything at all: a read must not fail because its record could not be written.
    except Exception as error:
        # A SQLSTATE or a class only: an exception's message may quote the values.
        cause = error if isinstance(error, AccessRecordNotWritten) else type(error).__name__
        logger.warning("access record not written: %s", cause)
        if _transaction_broken():
            # The call itself failed (a lost connection, a cancelled statement): the
            # transaction carrying the read can only roll back now, and nothing more
            # can be written in it, so the failure is counted after it. The read
            # still answers.
            _uncounted.set(_uncounted.get() + 1)
            transaction.set_rollback(True)
            return None
        access_record_failure_count()
        return None


class AccessRecordNotWritten(Exception):
    """The database refused the record; ``str()`` is the SQLSTATE or the class."""


class _RecordFields(TypedDict):
    owner_id: int
    public_id: uuid.UUID
    token_id: int
    route: str
    request_id: str
    created_at: datetime
    memory_ids: list[str]
    message_ids: list[str]
    derived_ids: list[str]


def _distinct(ids: Iterable[object]) -> list[str]:
    return list(dict.fromkeys(str(item) for item in ids))


def _record_write(principal: User, record: _RecordFields) -> int:
    if connection.vendor != "postgresql":
        try:
            if not connection.in_atomic_block:
                # A read outside any transaction (SQLite's): one INSERT is a
                # transaction of its own.
                return AccessRecord.objects.create(**record).pk
            # A savepoint inside an enclosing transaction: a failed write rolls back
            # only itself, and the transaction that carries the read stays usable.
            with principal_transaction(principal):
                return AccessRecord.objects.create(**record).pk
        except Exception as error:
            raise AccessRecordNotWritten(type(error).__name__) from error
    # Every token read pays for this, recall above all: one round trip, no model
    # instance, and each list of ids as the text of an array, which the function reads
    # as uuid[] (a malformed one fails there, inside its exception block). In a request
    # the principal is already the transaction's (no savepoint here: the function
    # catches a failed insert itself, see
    # memory.migration_operations.AccessRecordWriteFromText).
    with principal_context(principal), connection.cursor() as cursor:
        cursor.execute(
            "SELECT record_id, failure FROM "
            "memory_access_record_write(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                record["owner_id"],
                record["public_id"],
                record["token_id"],
                record["route"],
                record["request_id"],
                record["created_at"],
                *(
                    "{" + ",".join(ids) + "}"
                    for ids in (record["memory_ids"], record["message_ids"], record["derived_ids"])
                ),
            ],
        )
        record_id: int
        failure: str | None
        record_id, failure = cursor.fetchone()
    if failure is not None:
        raise AccessRecordNotWritten(f"SQLSTATE {failure}")
    return record_id


def _transaction_broken() -> bool:
    """Whether the open PostgreSQL transaction failed and takes no more statements."""
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        return False
    status: TransactionStatus = connection.connection.info.transaction_status
    return status == TransactionStatus.INERROR


def access_failures_settle() -> None:
    """Count the failures whose transaction broke, once it has ended; call it outside the
    request's transaction."""
    pending = _uncounted.get()
    if pending:
        _uncounted.set(0)
        for _ in range(pending):
            access_record_failure_count()


def access_record_failure_count(*, day: date | None = None) -> None:
    """Count one read that answered without its access record (today, by default)."""
    day = day or timezone.localdate()
    try:
        with transaction.atomic():
            failures = AccessRecordFailure.objects.filter(day=day)
            # UPDATE ... SET count = count + 1 is atomic under concurrent failures.
            if failures.update(count=F("count") + 1):
                return
            try:
                # Savepoint: a concurrent first insert must not abort this block.
                with transaction.atomic():
                    AccessRecordFailure.objects.create(day=day, count=1)
            except IntegrityError:
                failures.update(count=F("count") + 1)
    except DatabaseError as error:
        # The database is failing the read's request too; the log is all that is left.
        logger.error("access record failure not counted: %s", type(error).__name__)


def access_retention_cutoff(*, now: datetime | None = None) -> datetime:
    """Records created before this are past retention."""
    now = now or timezone.now()
    return now - timedelta(days=settings.REVERIE_ACCESS["retention_days"])


def access_record_purge(*, principal: User, before: datetime) -> int:
    """Delete the principal's access records created before ``before``; return how many."""
    with principal_transaction(principal):
        return delete_in_batches(
            AccessRecord.objects.filter(owner=principal, created_at__lt=before)
        )


def access_record_purge_sweep(*, now: datetime | None = None, principals: int = 500) -> int:
    """Delete every access record past retention; return how many.

    Discovery sees only which owners have such records (through the read-only
    ``access_purge`` policy); each owner's records are deleted in that owner's own
    context. At most ``principals`` owners per sweep; the next sweep takes the rest.
    """
    before = access_retention_cutoff(now=now)
    with discovery_context("access_purge"):
        owner_ids = list(
            AccessRecord.objects.filter(created_at__lt=before)
            .order_by("owner_id")
            .values_list("owner_id", flat=True)
            .distinct()[:principals]
        )
    purged = 0
    for principal in get_user_model().objects.filter(pk__in=owner_ids).order_by("pk"):
        purged += access_record_purge(principal=principal, before=before)
    return purged
