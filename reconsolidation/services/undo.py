"""The owner undoes a merge or a summary, with a receipt that replays under its key.

Undo restores the view from before the operation: its derived memories are
set aside with their copied text erased, and the originals, which the
operation never changed, show on their own again. Undo never brings back an
original deleted or corrected since; the receipt names each original the
operation read with its status now, and restores only those still live.
"""

import hashlib

from django.db import transaction

from memory.errors import ReverieError, conflict
from memory.principal import principal_context
from memory.selectors._ids import parse_public_id
from memory.services.idempotency import (
    idempotency_complete,
    idempotency_key_check,
    idempotency_reserve,
)
from reconsolidation.models import DerivedMemory, Receipt
from reconsolidation.selectors.operations import (
    UNDOABLE_KINDS,
    operation_get,
    operation_inputs,
    undo_refusal,
)

from .owner_actions import erase_generated_copies, expected_revision_check, suppress

UNDO = "undo"
SUPPRESSION_REASON = "owner_undo"
# Dismissed by the owner already: their own status, and their suppression, stand.
_DISMISSED = (DerivedMemory.Status.REJECTED, DerivedMemory.Status.DELETED)


def _request_fingerprint(operation_id, expected_revision):
    # Namespaced so that no HTTP request's fingerprint can ever equal it.
    material = f"reconsolidation:{UNDO}:{operation_id}:{expected_revision}"
    return hashlib.sha256(material.encode()).hexdigest()


def _replay(receipt, operation_id, expected_revision):
    """The receipt, if it answers this very request; a conflict if the key meant another."""
    result = receipt.result
    if (
        receipt.action != UNDO
        or result.get("operation") != str(operation_id)
        or result.get("expected_revision") != expected_revision
    ):
        raise conflict(
            "This Idempotency-Key was used for a different request.", field="Idempotency-Key"
        )
    return receipt


def operation_undo(*, principal, operation_id, expected_revision, idempotency_key):
    """Undo the principal's merge or summary ``operation_id`` at ``expected_revision``.

    Returns the ``Receipt``. The same key again returns the same receipt,
    whatever changed since; the same key with any other request, an ordinary
    memory write's included, is a conflict. The operation, its derived
    memories, the suppression that keeps the next pass from deriving the same
    thing again, the receipt and the key's reservation commit together or not
    at all.
    """
    idempotency_key_check(idempotency_key)
    expected_revision_check(expected_revision)
    operation_id = parse_public_id(operation_id, "operation_id")
    with principal_context(principal), transaction.atomic():
        receipt = Receipt.objects.filter(owner=principal, key=idempotency_key).first()
        if receipt is not None:
            return _replay(receipt, operation_id, expected_revision)
        # The key first: a concurrent request with it waits here until this
        # one commits, and then finds the receipt instead of undoing twice.
        record = idempotency_reserve(
            principal=principal,
            key=idempotency_key,
            fingerprint=_request_fingerprint(operation_id, expected_revision),
        )
        if record.status_code:
            receipt = Receipt.objects.filter(owner=principal, key=idempotency_key).first()
            if receipt is None:
                raise conflict("This Idempotency-Key was used for a request that is gone.")
            return _replay(receipt, operation_id, expected_revision)
        operation = operation_get(principal, operation_id, for_update=True)
        refusal = undo_refusal(operation)
        if refusal is not None and refusal[0] == "validation_error":
            raise ReverieError(
                *refusal, field="operation_id", undoable_kinds=[str(k) for k in UNDOABLE_KINDS]
            )
        if operation.revision != expected_revision:
            raise conflict(
                "The operation has changed since you read it.",
                field="expected_revision",
                current_revision=operation.revision,
            )
        if refusal is not None:
            raise ReverieError(*refusal, field="operation_id", state=operation.state)
        result = _undo(principal, operation, expected_revision)
        receipt = Receipt.objects.create(
            owner=principal, key=idempotency_key, operation=operation, action=UNDO, result=result
        )
        idempotency_complete(record, status_code=200, body=result)
        return receipt


def _undo(principal, operation, expected_revision):
    """Set the operation and its outputs aside; return the receipt's content-free result."""
    previous_state = operation.state
    outputs = []
    for derived in (
        DerivedMemory.objects.select_for_update()
        .filter(owner=principal, operation=operation)
        .order_by("id")
    ):
        previous_status = derived.status
        suppress(principal, derived.fingerprint, SUPPRESSION_REASON)
        if previous_status not in _DISMISSED:
            derived.status = DerivedMemory.Status.UNDONE
        erase_generated_copies(principal, derived)
        derived.revision += 1
        derived.save(update_fields=["status", "statement", "subject", "revision", "updated_at"])
        outputs.append(
            {
                "id": str(derived.public_id),
                "previous_status": previous_status,
                "status": derived.status,
                "revision": derived.revision,
            }
        )
    # The originals are read, not locked: undo changes none of them, and a
    # deletion committing after this read retires them on its own.
    inputs = operation_inputs(principal, operation)
    operation.state = operation.State.UNDONE
    # An operation invalidated earlier keeps the reason it first stopped holding.
    operation.invalidation_reason = operation.invalidation_reason or SUPPRESSION_REASON
    operation.revision += 1
    operation.save(update_fields=["state", "invalidation_reason", "revision", "updated_at"])
    return {
        "action": UNDO,
        "operation": str(operation.public_id),
        "kind": operation.kind,
        "expected_revision": expected_revision,
        "previous_state": previous_state,
        "state": operation.state,
        "revision": operation.revision,
        "outputs": outputs,
        "inputs": inputs,
        "restored": [entry["belief"] for entry in inputs if entry["live"]],
        "not_restored": [entry["belief"] for entry in inputs if not entry["live"]],
    }
