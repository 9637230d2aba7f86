"""The owner's ``Idempotency-Key`` namespace, shared by every replayable write.

Memory writes made over HTTP and owner actions of other apps (an undo's
receipt, say) reserve their keys here, so one key names one request whatever
surface it came through. A reservation lives in the transaction of the write
it guards: it commits with the write, or rolls back with it and leaves the key
free for a retry.
"""

import re
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from memory.errors import conflict, validation_error
from memory.models import IdempotencyRecord
from memory.principal import principal_context

IDEMPOTENCY_KEY_LIFETIME = timedelta(hours=24)
_KEY_RE = re.compile(r"^[\x21-\x7e]{1,200}$")


def idempotency_key_check(key):
    """Refuse a key that is not 1 to 200 printable ASCII characters."""
    if not isinstance(key, str) or not _KEY_RE.match(key):
        raise validation_error(
            "Idempotency-Key must be 1 to 200 printable characters.", field="Idempotency-Key"
        )
    return key


def idempotency_reserve(*, principal, key, fingerprint):
    """Reserve ``key`` for the request ``fingerprint`` and return its record, locked.

    Call it inside the transaction of the write. A record with a non-zero
    ``status_code`` was completed by an earlier request: the caller replays its
    ``body`` instead of writing again. The same key reserved for a different
    request is a conflict.

    A concurrent request with the same key blocks on the unique index until
    the first one commits, then finds its completed record: two requests
    never both write.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("idempotency_reserve needs the write's open transaction")
    idempotency_key_check(key)
    with principal_context(principal):
        records = IdempotencyRecord.objects.filter(owner=principal)
        records.filter(created_at__lt=timezone.now() - IDEMPOTENCY_KEY_LIFETIME).delete()
        record = records.select_for_update().filter(key=key).first()
        if record is None:
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        owner=principal, key=key, fingerprint=fingerprint, status_code=0
                    )
            except IntegrityError:
                record = records.select_for_update().get(key=key)
        if record.fingerprint != fingerprint:
            raise conflict(
                "This Idempotency-Key was used for a different request.",
                field="Idempotency-Key",
            )
        return record


def idempotency_complete(record, *, status_code, body):
    """Store the result a replay of ``record``'s request returns.

    In the write's transaction, under the principal that reserved the key.
    """
    record.status_code = status_code
    record.body = body
    record.save(update_fields=["status_code", "body"])
    return record
