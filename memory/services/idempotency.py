"""The owner's ``Idempotency-Key`` namespace, shared by every replayable write.

Memory writes made over HTTP and owner actions of other apps (an undo's
receipt, say) reserve their keys here, so one key names one request whatever
surface it came through. A reservation lives in the transaction of the write
it guards: it commits with the write, or rolls back with it and leaves the key
free for a retry.

A record keeps no text: a replay renders the resource as it is now, and the
fingerprint that tells two requests apart is keyed with the server's secret
(``idempotency_fingerprint``), so the table confirms no guess about what a
request said. Expired
records are purged on the owner's next keyed write and by the scheduled
``idempotency_purge_sweep``, found through the content-free ``MaintenanceDue``.
"""

import re
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import User
from common.principal import principal_context, principal_transaction
from core.errors import conflict, validation_error
from memory.models import IdempotencyRecord, MaintenanceDue

IDEMPOTENCY_KEY_LIFETIME = timedelta(hours=24)
IDEMPOTENCY_KEY_MAX_CHARS = 200
# What a key may be: 1 to IDEMPOTENCY_KEY_MAX_CHARS printable ASCII characters. The API
# schema documents the header with this pattern, so the two cannot differ.
IDEMPOTENCY_KEY_PATTERN = rf"^[!-~]{{1,{IDEMPOTENCY_KEY_MAX_CHARS}}}$"
_KEY_RE = re.compile(IDEMPOTENCY_KEY_PATTERN)


def idempotency_fingerprint(material: str) -> str:
    """The fingerprint of a request described by ``material`` (a string): equal for equal
    requests, and keyed with ``SECRET_KEY``.

    A plain hash of a request's body would let whoever reads the table confirm a guessed
    statement, an erased one included, by hashing the guess. Rotating ``SECRET_KEY``
    changes every fingerprint, so a key in flight then answers as used for another request.
    """
    return salted_hmac("reverie.idempotency", material, algorithm="sha256").hexdigest()


def idempotency_key_check(key: object) -> str:
    """Refuse a key that does not match ``IDEMPOTENCY_KEY_PATTERN``."""
    # fullmatch: Python's ``$`` also matches before a final newline, the schema's does not.
    if not isinstance(key, str) or not _KEY_RE.fullmatch(key):
        raise validation_error(
            f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX_CHARS} printable characters.",
            field="Idempotency-Key",
        )
    return key


def idempotency_reserve(*, principal: User, key: object, fingerprint: str) -> IdempotencyRecord:
    """Reserve ``key`` for the request ``fingerprint`` and return its record, locked.

    Call it inside the transaction of the write. A record with a non-zero
    ``status_code`` was completed by an earlier request: the caller replays it
    (its status, and the current state of its ``resource_id``) instead of
    writing again. The same key reserved for a different
    request is a conflict.

    A concurrent request with the same key blocks on the unique index until
    the first one commits, then finds its completed record: two requests
    never both write.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("idempotency_reserve needs the write's open transaction")
    checked = idempotency_key_check(key)
    with principal_context(principal):
        records = IdempotencyRecord.objects.filter(owner=principal)
        records.filter(created_at__lt=timezone.now() - IDEMPOTENCY_KEY_LIFETIME).delete()
        record = records.select_for_update().filter(key=checked).first()
        if record is None:
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        owner=principal, key=checked, fingerprint=fingerprint, status_code=0
                    )
            except IntegrityError:
                record = records.select_for_update().get(key=checked)
            else:
                MaintenanceDue.objects.get_or_create(
                    owner=principal,
                    kind=MaintenanceDue.Kind.IDEMPOTENCY_PURGE,
                    defaults={"due_at": record.created_at + IDEMPOTENCY_KEY_LIFETIME},
                )
        if record.fingerprint != fingerprint:
            raise conflict(
                "This Idempotency-Key was used for a different request.",
                field="Idempotency-Key",
            )
        return record


def idempotency_complete(
    record: IdempotencyRecord, *, status_code: int, resource_id: str = ""
) -> IdempotencyRecord:
    """Record that ``record``'s request answered ``status_code`` about ``resource_id``.

    In the write's transaction, under the principal that reserved the key.
    Only the public id is kept, never the response: see the module docstring.
    """
    record.status_code = status_code
    record.resource_id = str(resource_id or "")
    record.save(update_fields=["status_code", "resource_id"])
    return record


def idempotency_purge_due(*, principal: User, now: datetime | None = None) -> int:
    """Delete the principal's expired records; return how many.

    Moves the principal's purge due time to when its oldest remaining record
    expires, or drops it when none remains.
    """
    now = now or timezone.now()
    with principal_transaction(principal):
        due = (
            MaintenanceDue.objects.select_for_update(skip_locked=True)
            .filter(owner=principal, kind=MaintenanceDue.Kind.IDEMPOTENCY_PURGE)
            .first()
        )
        if due is None:
            return 0
        records = IdempotencyRecord.objects.filter(owner=principal)
        purged, _ = records.filter(created_at__lte=now - IDEMPOTENCY_KEY_LIFETIME).delete()
        oldest = records.aggregate(oldest=Min("created_at"))["oldest"]
        if oldest is None:
            due.delete()
        else:
            due.due_at = oldest + IDEMPOTENCY_KEY_LIFETIME
            due.save(update_fields=["due_at"])
        return purged


def idempotency_purge_sweep(*, now: datetime | None = None, batch: int = 500) -> int:
    """Purge expired records of principals whose purge is due; return how many.

    Discovery reads only the content-free ``MaintenanceDue`` table; each
    principal's records are deleted in that principal's own context.
    """
    now = now or timezone.now()
    owner_ids = list(
        MaintenanceDue.objects.filter(kind=MaintenanceDue.Kind.IDEMPOTENCY_PURGE, due_at__lte=now)
        .order_by("due_at", "owner_id")
        .values_list("owner_id", flat=True)[:batch]
    )
    purged = 0
    for principal in User.objects.filter(pk__in=owner_ids).order_by("pk"):
        purged += idempotency_purge_due(principal=principal, now=now)
    return purged
