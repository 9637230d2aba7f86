"""The owner's history of reconsolidation operations, and what undoing one would restore.

Results hold ids, kinds, states, statuses and revisions. The only text is a
derived memory's own statement, and none of a restricted one: restriction
hides a derived memory from history reads too.
"""

from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from django.db.models import Q, QuerySet

from accounts.models import User
from common.principal import principal_context
from core.errors import not_found, validation_error
from core.ids import parse_public_id
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief
from reconsolidation.models import DerivedMemory, Operation, Receipt

# Hypotheses and uncertainty notices are dismissed by rejecting them instead.
UNDOABLE_KINDS = (Operation.Kind.MERGE, Operation.Kind.SUMMARY)
UNDOABLE_STATES = (Operation.State.APPLIED, Operation.State.INVALIDATED)
MISSING = "missing"
# Why an operation in each other state has nothing to undo, in the owner's words.
NOT_UNDOABLE_STATES: dict[str, str] = {
    Operation.State.UNDONE: "It is already undone.",
    Operation.State.PLANNED: "It has not been carried out, so it changed nothing yet.",
    Operation.State.FAILED: "It failed and changed nothing.",
}


class OperationInput(TypedDict):
    """An original an operation read: the revision read, and its status and revision now."""

    belief: str
    read_revision: int
    status: str
    revision: int | None
    live: bool
    reason: str


class OperationOutput(TypedDict):
    """A derived memory an operation made, without the text of a restricted one."""

    id: str
    kind: str
    status: str
    revision: int
    review_state: str
    restricted: bool
    tentative: bool
    statement: str


class OperationView(TypedDict):
    id: str
    kind: str
    state: str
    revision: int
    policy_version: str
    invalidation_reason: str
    created_at: datetime
    updated_at: datetime


class ReceiptView(TypedDict):
    key: str
    action: str
    created_at: datetime
    result: dict[str, Any]


class OperationDetail(OperationView):
    inputs: list[OperationInput]
    outputs: list[OperationOutput]
    receipts: list[ReceiptView]


class UndoRefusal(NamedTuple):
    """Why an operation cannot be undone: an error code and the owner's message."""

    code: str
    message: str


class RefusalView(TypedDict):
    code: str
    message: str


class UndoPreview(OperationView):
    undoable: bool
    refusal: RefusalView | None
    expected_revision: int
    restores: list[OperationInput]
    does_not_restore: list[OperationInput]
    sets_aside: list[OperationOutput]


def _choice(value: str | None, allowed: Collection[str], field: str) -> str | None:
    if value is not None and value not in allowed:
        raise validation_error(
            f"Unknown {field}: {value}.", field=field, allowed=[str(a) for a in allowed]
        )
    return value


def operation_list(
    principal: User,
    *,
    kind: str | None = None,
    state: str | None = None,
    changed_after: tuple[datetime, int] | None = None,
) -> QuerySet[Operation]:
    """The principal's operations, newest first, optionally of one kind and one state.

    With ``changed_after`` (a position ``(updated_at, id)``), only those changed
    after it, oldest change first, for a change feed. A QuerySet: evaluate it
    inside the principal's context (a request is).
    """
    operations = Operation.objects.filter(owner=principal)
    if _choice(kind, Operation.Kind.values, "kind") is not None:
        operations = operations.filter(kind=kind)
    if _choice(state, Operation.State.values, "state") is not None:
        operations = operations.filter(state=state)
    if changed_after is not None:
        changed_at, row_id = changed_after
        return operations.filter(
            Q(updated_at__gt=changed_at) | Q(updated_at=changed_at, pk__gt=row_id)
        ).order_by("updated_at", "id")
    return operations.order_by("-created_at", "-id")


def operation_get(principal: User, operation_id: object, *, for_update: bool = False) -> Operation:
    """One of the principal's operations; another owner's answers like a missing one."""
    operations = Operation.objects.filter(owner=principal)
    if for_update:
        operations = operations.select_for_update()
    operation = operations.filter(public_id=parse_public_id(operation_id, "operation_id")).first()
    if operation is None:
        raise not_found("operation")
    return operation


# Why undo cannot bring back an original that is no longer live, by its status now.
NOT_RESTORED_BECAUSE = {
    "deleted": "It was erased since; undo never brings erased text back.",
    "superseded": "It was corrected since; the correction stands.",
    "rejected": "You rejected it since.",
    "retracted": "It was retracted since (you said it no longer holds).",
    "expired": "It expired since.",
    MISSING: "It no longer exists.",
}


def operation_inputs(principal: User, operation: Operation) -> list[OperationInput]:
    """Each original the operation read, with the revision it read and its status now.

    ``live`` says whether the original still stands as it may be shown: a
    deleted, corrected (superseded), retracted, rejected or expired one is
    not, and ``reason`` says why in a sentence.
    """
    current = {
        str(public_id): (status, revision)
        for public_id, status, revision in Belief.objects.filter(
            owner=principal, public_id__in=[entry["belief"] for entry in operation.inputs]
        ).values_list("public_id", "status", "revision")
    }
    inputs: list[OperationInput] = []
    for entry in operation.inputs:
        status, revision = current.get(entry["belief"], (MISSING, None))
        inputs.append(
            {
                "belief": entry["belief"],
                "read_revision": entry["revision"],
                "status": status,
                "revision": revision,
                "live": status in LIVE_BELIEF_STATUSES,
                "reason": ""
                if status in LIVE_BELIEF_STATUSES
                else NOT_RESTORED_BECAUSE.get(status, NOT_RESTORED_BECAUSE[MISSING]),
            }
        )
    return inputs


def _output(derived: DerivedMemory) -> OperationOutput:
    return {
        "id": str(derived.public_id),
        "kind": derived.kind,
        "status": derived.status,
        "revision": derived.revision,
        "review_state": derived.review_state,
        "restricted": derived.restricted,
        "tentative": derived.kind == DerivedMemory.Kind.HYPOTHESIS,
        "statement": "" if derived.restricted else derived.statement,
    }


def _outputs(principal: User, operation: Operation) -> list[OperationOutput]:
    return [
        _output(derived)
        for derived in DerivedMemory.objects.filter(owner=principal, operation=operation).order_by(
            "id"
        )
    ]


def operation_view(operation: Operation) -> OperationView:
    """An operation's own fields as plain data, for its owner."""
    return {
        "id": str(operation.public_id),
        "kind": operation.kind,
        "state": operation.state,
        "revision": operation.revision,
        "policy_version": operation.policy_version,
        "invalidation_reason": operation.invalidation_reason,
        "created_at": operation.created_at,
        "updated_at": operation.updated_at,
    }


def operation_detail(principal: User, operation_id: object) -> OperationDetail:
    """An operation with its inputs (each original's current status), outputs and receipts."""
    with principal_context(principal):
        operation = operation_get(principal, operation_id)
        receipts = operation.receipts.filter(owner=principal).order_by("created_at", "id")
        return {
            **operation_view(operation),
            "inputs": operation_inputs(principal, operation),
            "outputs": _outputs(principal, operation),
            "receipts": [receipt_view(receipt) for receipt in receipts],
        }


def operation_receipt(principal: User, operation: Operation, key: str) -> Receipt:
    """The receipt with ``key`` of the principal's ``operation``; not found otherwise."""
    receipt = operation.receipts.filter(owner=principal, key=key).first()
    if receipt is None:
        raise not_found("receipt")
    return receipt


def receipt_view(receipt: Receipt) -> ReceiptView:
    """A receipt as the owner reads it: content-free, as it was written."""
    return {
        "key": receipt.key,
        "action": receipt.action,
        "created_at": receipt.created_at,
        "result": receipt.result,
    }


def undo_refusal(operation: Operation) -> UndoRefusal | None:
    """Why ``operation`` cannot be undone (a code and a message), or None when it can."""
    if operation.kind not in UNDOABLE_KINDS:
        return UndoRefusal(
            "validation_error",
            f"Only {' and '.join(UNDOABLE_KINDS)} operations can be undone; "
            f"reject a {operation.kind.replace('_', ' ')} instead.",
        )
    if operation.state not in UNDOABLE_STATES:
        return UndoRefusal("conflict", NOT_UNDOABLE_STATES[operation.state])
    return None


def undo_preview(principal: User, operation_id: object) -> UndoPreview:
    """What undoing the operation would do: the originals it would restore (shown on their
    own again; undo never changed them), those it would not because they were deleted or
    corrected since and why, and the derived views it would set aside."""
    with principal_context(principal):
        operation = operation_get(principal, operation_id)
        inputs = operation_inputs(principal, operation)
        refusal = undo_refusal(operation)
        return {
            **operation_view(operation),
            "undoable": refusal is None,
            "refusal": None if refusal is None else {"code": refusal[0], "message": refusal[1]},
            "expected_revision": operation.revision,
            "restores": [entry for entry in inputs if entry["live"]],
            "does_not_restore": [entry for entry in inputs if not entry["live"]],
            # What undo sets aside: the operation's views, their copied text erased.
            "sets_aside": _outputs(principal, operation),
        }


def original_statements(principal: User, belief_ids: Iterable[str]) -> dict[str, str]:
    """{public id: statement now} of the principal's originals among ``belief_ids`` (the
    machine administrator's tools print them beside the ids)."""
    with principal_context(principal):
        return {
            str(public_id): statement
            for public_id, statement in Belief.objects.filter(
                owner=principal, public_id__in=list(belief_ids)
            ).values_list("public_id", "statement")
        }
