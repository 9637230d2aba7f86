"""The operator trail: every operator or administrator action, content-free; and the
owner's own choices about model processing, which operators must be able to see."""

from typing import Any

from django.db import connection
from django.db.models import QuerySet

from .models import OperatorAction, User

SHELL_ACTOR = "administrator (shell)"


def operator_action_record(
    *,
    action: str,
    actor: User | None = None,
    via: str,
    principal: User | None = None,
    target: object = "",
    details: dict[str, Any] | None = None,
) -> OperatorAction:
    """Record an operator action; call it inside the action's own transaction.

    ``actor`` is the operator's account (None for the machine's administrator
    at the shell). ``details`` must be content-free: ids, keys, states.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("operator_action_record needs the action's open transaction")
    return OperatorAction.objects.create(
        actor=actor,
        actor_name=actor.get_username() if actor is not None else SHELL_ACTOR,
        via=via,
        action=action,
        principal=principal,
        target=str(target or ""),
        details=details or {},
    )


def operator_actions_for(*, principal: User) -> QuerySet[OperatorAction]:
    """What operators and the administrator did that concerned ``principal``, newest first.

    The owner's own choices, made on the review site or through the API, are not among them.
    """
    return (
        OperatorAction.objects.filter(principal=principal)
        .exclude(via__in=(OperatorAction.Via.REVIEW, OperatorAction.Via.API))
        .order_by("-created_at", "-id")
    )
