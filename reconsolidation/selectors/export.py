"""Everything reconsolidation holds for one owner, for the owner's export.

Derived memories (a restricted one without its text, as in every read),
summary claims with the originals that support them, operations with what
they read, receipts and suppressions (hashes and reasons, never text).
"""

from typing import Any, TypedDict

from accounts.models import User
from common.principal import principal_context
from reconsolidation.models import (
    ClaimSupport,
    DerivedMemory,
    Operation,
    Receipt,
    SummaryClaim,
    Suppression,
)

from .derived import derived_views
from .operations import operation_view, receipt_view


class ExportSupport(TypedDict):
    memory_id: str
    read_revision: int


class ExportClaim(TypedDict):
    """A summary's claim in the export, with the originals that support it."""

    position: int
    statement: str
    polarity: str
    uncertain: bool
    supports: list[ExportSupport]


def _claims(principal: User) -> dict[int, list[ExportClaim]]:
    supports: dict[int, list[ExportSupport]] = {}
    for claim_id, public_id, revision in ClaimSupport.objects.filter(owner=principal).values_list(
        "claim_id", "belief__public_id", "belief_revision"
    ):
        supports.setdefault(claim_id, []).append(
            {"memory_id": str(public_id), "read_revision": revision}
        )
    claims: dict[int, list[ExportClaim]] = {}
    for claim in SummaryClaim.objects.filter(owner=principal).order_by("derived_id", "position"):
        claims.setdefault(claim.derived_id, []).append(
            {
                "position": claim.position,
                "statement": claim.statement,
                "polarity": claim.polarity,
                "uncertain": claim.uncertain,
                "supports": supports.get(claim.pk, []),
            }
        )
    return claims


def reconsolidation_export(principal: User) -> dict[str, Any]:
    with principal_context(principal):
        rows = list(DerivedMemory.objects.filter(owner=principal).order_by("created_at", "id"))
        claims = _claims(principal)
        derived = []
        for row, view in zip(rows, derived_views(principal, rows), strict=True):
            if row.kind == DerivedMemory.Kind.SUMMARY:
                view["claims"] = [
                    {**claim, "statement": "" if row.restricted else claim["statement"]}
                    for claim in claims.get(row.pk, [])
                ]
            derived.append(view)
        operations = {
            operation.pk: operation
            for operation in Operation.objects.filter(owner=principal).order_by("created_at", "id")
        }
        receipts = Receipt.objects.filter(owner=principal).select_related("derived")
        return {
            "derived_memories": derived,
            "operations": [
                {
                    **operation_view(operation),
                    "inputs": [
                        {"memory_id": entry["belief"], "read_revision": entry["revision"]}
                        for entry in operation.inputs
                    ],
                }
                for operation in operations.values()
            ],
            "receipts": [
                {
                    **receipt_view(receipt),
                    "operation_id": str(operations[receipt.operation_id].public_id),
                    "derived_id": str(receipt.derived.public_id) if receipt.derived else None,
                }
                for receipt in receipts.order_by("created_at", "id")
            ],
            "suppressions": [
                {"fingerprint": fingerprint, "reason": reason, "created_at": created_at}
                for fingerprint, reason, created_at in Suppression.objects.filter(owner=principal)
                .order_by("created_at", "id")
                .values_list("fingerprint", "reason", "created_at")
            ],
        }
