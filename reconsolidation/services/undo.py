"""The owner undoes a merge or a summary, with a receipt that replays under its key.

Undo restores the view from before the operation: its derived memories are
set aside with their copied text erased, and the originals, which the
operation never changed, show on their own again. Undo never brings back an
original deleted or corrected since; the receipt names each original the
operation read with its status now, and restores only those still live.
"""

from typing import Any

from accounts.models import User
from core.errors import ReverieError, conflict
from core.ids import parse_public_id
from reconsolidation.models import DerivedMemory, Operation, Receipt
from reconsolidation.selectors.operations import (
    UNDOABLE_KINDS,
    operation_get,
    operation_inputs,
    undo_refusal,
)

from .owner_actions import erase_generated_copies, suppress
from .receipts import ActResult, receipted

UNDO = "undo"
SUPPRESSION_REASON = "owner_undo"
# Dismissed by the owner already: their own status, and their suppression, stand.
_DISMISSED = (DerivedMemory.Status.REJECTED, DerivedMemory.Status.DELETED)


def operation_undo(
    *,
    principal: User,
    operation_id: object,
    expected_revision: object,
    idempotency_key: str | None = None,
) -> Receipt:
    """Undo the principal's merge or summary ``operation_id`` at ``expected_revision``.

    Returns the ``Receipt`` (``replayed`` says whether it is an earlier one).
    The same key again returns the same receipt, whatever changed since; the
    same key with any other request, an ordinary memory write's included, is
    a conflict. The operation, its derived memories, the suppression that
    keeps the next pass from deriving the same thing again, the receipt and
    the key's reservation commit together or not at all.
    """
    public_id = parse_public_id(operation_id, "operation_id")

    def act() -> ActResult:
        operation = operation_get(principal, public_id, for_update=True)
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
        return operation, None, _undo(principal, operation, expected_revision)

    return receipted(
        principal=principal,
        key=idempotency_key,
        action=UNDO,
        target=public_id,
        expected_revision=expected_revision,
        act=act,
    )


def _undo(principal: User, operation: Operation, expected_revision: object) -> dict[str, Any]:
    """Set the operation and its outputs aside; return the receipt's content-free result."""
    previous_state = operation.state
    outputs: list[dict[str, Any]] = []
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
