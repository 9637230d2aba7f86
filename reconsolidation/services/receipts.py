"""Receipts: what an owner action did, committed with it and replayed under its key.

Every owner action on reconsolidation's output (undoing an operation;
reviewing, restricting, rejecting, deleting or promoting a derived memory)
writes a receipt in the action's own transaction. Under an
``Idempotency-Key`` the key is reserved in the owner's one key namespace
(``memory.services.idempotency``), shared with ordinary memory writes, so
one key names one request whatever surface it came through; without one,
the receipt gets a key of its own and the action is simply recorded.

A receipt holds ids, kinds, statuses and revisions, never text. A replay
returns the receipt as it was written, and whoever answers it renders the
current state: an erasure after the action is never undone by a replay.
"""

import json
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from accounts.models import User
from common.principal import principal_transaction
from core.errors import conflict
from memory.services.idempotency import (
    idempotency_complete,
    idempotency_fingerprint,
    idempotency_key_check,
    idempotency_reserve,
)
from reconsolidation.models import DerivedMemory, Operation, Receipt

from .owner_actions import expected_revision_check

# Keys of receipts written without an Idempotency-Key: never a client's key.
GENERATED_KEY_PREFIX = "receipt:"

# What an action returns for its receipt: the operation and derived memory it acted on,
# and its content-free result.
ActResult = tuple[Operation, DerivedMemory | None, dict[str, Any]]


def _fingerprint(
    action: str, target: object, expected_revision: object, details: Mapping[str, Any] | None
) -> str:
    # Namespaced, so that no memory write's fingerprint (that of an HTTP
    # request) can ever equal it: the same key on both is a conflict.
    fingerprint: str = idempotency_fingerprint(
        json.dumps(
            ["reconsolidation", action, str(target), expected_revision, details], sort_keys=True
        )
    )
    return fingerprint


def _same_request(receipt: Receipt, action: str, target: object, expected_revision: object) -> bool:
    result = receipt.result
    # Receipts of undo written before "target" existed name the operation.
    recorded = result.get("target", result.get("operation"))
    return (
        receipt.action == action
        and recorded == str(target)
        and result.get("expected_revision") == expected_revision
    )


def _replay(receipt: Receipt, action: str, target: object, expected_revision: object) -> Receipt:
    if not _same_request(receipt, action, target, expected_revision):
        raise conflict(
            "This Idempotency-Key was used for a different request.", field="Idempotency-Key"
        )
    receipt.replayed = True
    return receipt


def receipted(
    *,
    principal: User,
    key: str | None,
    action: str,
    target: object,
    expected_revision: object,
    act: Callable[[], ActResult],
    details: Mapping[str, Any] | None = None,
) -> Receipt:
    """Do ``act`` once for this request and return its ``Receipt``.

    ``act()`` runs inside the transaction, under the principal's context, and
    returns ``(operation, derived or None, result)``, ``result`` being the
    content-free dict the receipt keeps. ``target`` is the public id acted on,
    ``details`` anything else that tells two requests apart (hashed, never
    stored). With a ``key`` used before for the same request, nothing is done
    again and the earlier receipt comes back with ``replayed`` set; the same
    key with any other request, an ordinary memory write's included, is a
    conflict. The action, its receipt and the key's reservation commit
    together or not at all.
    """
    if key is not None:
        idempotency_key_check(key)
    expected_revision_check(expected_revision)
    with principal_transaction(principal):
        record = None
        if key is not None:
            # The key first, compared by the whole request (``details`` included): a
            # concurrent request with it waits here until this one commits and then
            # replays instead of acting twice, and another request under it is a conflict.
            record = idempotency_reserve(
                principal=principal,
                key=key,
                fingerprint=_fingerprint(action, target, expected_revision, details),
            )
            receipt = Receipt.objects.filter(owner=principal, key=key).first()
            if receipt is not None:
                # Its reservation may have been purged after a day while the receipt
                # stays: the action, target and revision still have to match.
                if not record.status_code:
                    idempotency_complete(record, status_code=200)
                return _replay(receipt, action, target, expected_revision)
            if record.status_code:
                raise conflict(
                    "This Idempotency-Key was used for a request that is gone.",
                    field="Idempotency-Key",
                )
        operation, derived, acted = act()
        result = {
            "action": action,
            "target": str(target),
            "expected_revision": expected_revision,
            **acted,
        }
        receipt = Receipt.objects.create(
            owner=principal,
            key=key or f"{GENERATED_KEY_PREFIX}{uuid.uuid4().hex}",
            operation=operation,
            derived=derived,
            action=action,
            result=result,
        )
        if record is not None:
            idempotency_complete(record, status_code=200)
        receipt.replayed = False
        return receipt
