"""Recording who read the owner's memories, and forgetting it after the retention.

Every read made with an API token records, in the request that answers it, which
token read what through which route (``memory.models.access``). An item is recorded
when the answer carries it: a memory (with its sources' excerpts, which are part of
it), a message, a derived memory. A bare reference, an id with a status and no text
(an operation's inputs, a derived memory's ``memory_ids``), is not a read of it.

Recording must never cost the read its answer: a record that cannot be written is
given up, and the failure is counted per day for operators, without anything that
says whose read it was.
"""

import logging
import uuid
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from memory.models import AccessedItem, AccessRecord, AccessRecordFailure
from memory.principal import discovery_context, principal_transaction

logger = logging.getLogger(__name__)

# Items written per statement: an export carries every memory and message of a bank.
ITEM_BATCH = 1000
# Records deleted per statement by the purge (see memory.services.account.PURGE_BATCH).
PURGE_BATCH = 10_000


def access_record(*, principal, token, route, request_id, memories=(), messages=(), derived=()):
    """Record that ``token`` read these memories, messages and derived memories (public
    ids) of ``principal`` through ``route`` (a route name) in request ``request_id``.

    Returns the record, or None when there is nothing to record (no token: the owner's
    own browser session) or writing it failed. Never raises: the read answers anyway.
    """
    if token is None or not settings.REVERIE_ACCESS["record"]:
        return None
    items = [
        *((AccessedItem.Kind.MEMORY, item) for item in _distinct(memories)),
        *((AccessedItem.Kind.MESSAGE, item) for item in _distinct(messages)),
        *((AccessedItem.Kind.DERIVED, item) for item in _distinct(derived)),
    ]
    try:
        # A savepoint inside the request's transaction (on PostgreSQL the whole
        # request is one): a failed write rolls back only itself, and the
        # transaction that carries the read stays usable.
        with principal_transaction(principal):
            return _record_write(principal, token, route, request_id, items)
    # Anything at all: a read must not fail because its record could not be written.
    except Exception as error:
        # The class only: an exception's message may quote the values written.
        logger.warning("access record not written: %s", type(error).__name__)
        access_record_failure_count()
        return None


def _distinct(ids):
    return list(dict.fromkeys(str(item) for item in ids))


def _record_write(principal, token, route, request_id, items):
    counts = dict.fromkeys(AccessedItem.Kind.values, 0)
    for kind, _ in items:
        counts[kind] += 1
    record = AccessRecord(
        owner=principal,
        token=token,
        route=route[:60],
        request_id=str(request_id)[:64],
        created_at=timezone.now(),
        memory_count=counts[AccessedItem.Kind.MEMORY],
        message_count=counts[AccessedItem.Kind.MESSAGE],
        derived_count=counts[AccessedItem.Kind.DERIVED],
    )
    if connection.vendor == "postgresql":
        # Every token read pays for this, recall above all: one statement (one round
        # trip, no model instance per item) writes the record and its items. It also
        # lets the read's transaction commit without waiting for the disk: otherwise
        # the record alone would make every read wait for a WAL flush. A crash may
        # lose the last fraction of a second of records (never a read, never anything
        # else: a read writes nothing else that matters), and never half of one.
        with connection.cursor() as cursor:
            cursor.execute(_INSERT_SQL, _insert_params(record, items))
            record.pk = cursor.fetchone()[0]
        return record
    record.save(force_insert=True)
    AccessedItem.objects.bulk_create(
        [
            AccessedItem(owner=principal, record=record, kind=kind, public_id=public_id)
            for kind, public_id in items
        ],
        batch_size=ITEM_BATCH,
    )
    return record


_INSERT_SQL = """
WITH record AS (
    INSERT INTO memory_accessrecord (owner_id, public_id, token_id, route, request_id,
                                     created_at, memory_count, message_count, derived_count)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
    RETURNING id
), items AS (
    INSERT INTO memory_accesseditem (owner_id, record_id, kind, public_id)
    SELECT %s, record.id, item.kind, item.public_id
    FROM record, unnest(%s::varchar[], %s::uuid[]) AS item(kind, public_id)
)
SELECT id, set_config('synchronous_commit', 'off', true) FROM record
"""


def _insert_params(record, items):
    return [
        record.owner_id,
        record.public_id,
        record.token_id,
        record.route,
        record.request_id,
        record.created_at,
        record.memory_count,
        record.message_count,
        record.derived_count,
        record.owner_id,
        [kind for kind, _ in items],
        [uuid.UUID(public_id) for _, public_id in items],
    ]


def access_record_failure_count(*, day=None):
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


def access_retention_cutoff(*, now=None):
    """Records created before this are past retention."""
    now = now or timezone.now()
    return now - timedelta(days=settings.REVERIE_ACCESS["retention_days"])


def access_record_purge(*, principal, before):
    """Delete the principal's access records created before ``before``; return how many."""
    purged = 0
    with principal_transaction(principal):
        old = AccessRecord.objects.filter(owner=principal, created_at__lt=before)
        while batch := list(old.values_list("pk", flat=True)[:PURGE_BATCH]):
            AccessedItem.objects.filter(owner=principal, record_id__in=batch).delete()
            AccessRecord.objects.filter(owner=principal, pk__in=batch).delete()
            purged += len(batch)
    return purged


def access_record_purge_sweep(*, now=None, principals=500):
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
