"""The owner's controls of a derived memory, each with a receipt: review, restrict,
unrestrict, reject, delete, and promote (hypotheses only).

Each control is the service in ``owner_actions`` or ``hypotheses`` that does
the work, run through ``receipted`` so that the control and its receipt
commit together and replay under the request's ``Idempotency-Key``. None of
them changes an original.
"""

from collections.abc import Callable
from typing import Any, Protocol
from uuid import UUID

from accounts.models import User
from core.errors import not_found, validation_error
from core.ids import parse_public_id
from memory.models import Belief
from reconsolidation.models import DerivedMemory, Receipt

from .hypotheses import hypothesis_promote
from .owner_actions import (
    derived_delete,
    derived_reject,
    derived_restrict,
    derived_review,
)
from .receipts import ActResult, receipted


class _Control(Protocol):
    """A control: the derived memory it acted on, and the memory it created if any."""

    def __call__(
        self, *, principal: User, derived_id: UUID, expected_revision: object, statement: str | None
    ) -> tuple[DerivedMemory, Belief | None]: ...


def _promote(
    *, principal: User, derived_id: UUID, expected_revision: object, statement: str | None
) -> tuple[DerivedMemory, Belief | None]:
    belief = hypothesis_promote(
        principal=principal,
        derived_id=derived_id,
        expected_revision=expected_revision,
        statement=statement,
    )
    return DerivedMemory.objects.get(owner=principal, public_id=derived_id), belief


def _plain(service: Callable[..., DerivedMemory], **options: Any) -> _Control:
    """A control that changes only the derived memory: ``(derived, None)``."""

    def control(
        *, principal: User, derived_id: UUID, expected_revision: object, statement: str | None
    ) -> tuple[DerivedMemory, Belief | None]:
        derived = service(
            principal=principal,
            derived_id=derived_id,
            expected_revision=expected_revision,
            **options,
        )
        return derived, None

    return control


CONTROLS: dict[str, _Control] = {
    "review": _plain(derived_review),
    "restrict": _plain(derived_restrict),
    "unrestrict": _plain(derived_restrict, restricted=False),
    "reject": _plain(derived_reject),
    "delete": _plain(derived_delete),
    "promote": _promote,
}


def derived_control(
    *,
    principal: User,
    derived_id: object,
    action: str,
    expected_revision: object,
    idempotency_key: str | None = None,
    statement: str | None = None,
) -> Receipt:
    """Apply the owner's ``action`` (a key of ``CONTROLS``) to their derived memory
    ``derived_id`` at ``expected_revision``; return the ``Receipt``.

    ``statement`` words a promotion (the hypothesis's connection otherwise). A
    replay under the same key returns the earlier receipt and does nothing.
    """
    control = CONTROLS[action]
    public_id = parse_public_id(derived_id, "derived_id")

    def act() -> ActResult:
        found = (
            DerivedMemory.objects.filter(owner=principal, public_id=public_id)
            .values("kind", "status", "review_state", "restricted")
            .first()
        )
        if found is None:
            raise not_found("derived memory")
        if action == "promote" and found["kind"] != DerivedMemory.Kind.HYPOTHESIS:
            raise validation_error(
                "Only a hypothesis can be promoted to a memory.",
                field="derived_id",
                derived_kind=found["kind"],
            )
        before = {
            "status": found["status"],
            "review_state": found["review_state"],
            "restricted": found["restricted"],
        }
        derived, belief = control(
            principal=principal,
            derived_id=public_id,
            expected_revision=expected_revision,
            statement=statement,
        )
        result: dict[str, Any] = {
            "derived": str(derived.public_id),
            "kind": derived.kind,
            "operation": str(derived.operation.public_id),
            "previous": before,
            "status": derived.status,
            "review_state": derived.review_state,
            "restricted": derived.restricted,
            "revision": derived.revision,
        }
        if belief is not None:
            result["memory"] = str(belief.public_id)
        return derived.operation, derived, result

    return receipted(
        principal=principal,
        key=idempotency_key,
        action=action,
        target=public_id,
        expected_revision=expected_revision,
        act=act,
        details={"statement": statement},
    )
