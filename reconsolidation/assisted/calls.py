"""Sending an admitted request, settling it, and recovering calls whose worker died.

A call is sent at most ``send_cap`` times under its reservation (the adapter
itself never retries). Settlement and the call's audit (its state, usage,
charge and stage decisions) commit together; a call whose usage is unknown
(a timeout, an unreadable reply, a reply without usage) or that was never
sent keeps its whole reservation, and recovery invents no usage.
"""

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from providers import ledger
from providers.client import Completion, ProviderError, complete
from providers.config import ProviderConfig
from reconsolidation.models import ProviderCall

from .preparation import Request

# The provider answered with an error: nothing generated, nothing charged.
NOT_BILLED = frozenset({"rate_limited", "unavailable", "refused"})


class SendRefused(Exception):
    """The call may not be sent (again): its send cap is spent or it is no longer reserved."""

    error_class = "send_cap"


def send(
    call: ProviderCall, payload: bytes, config: ProviderConfig, *, timeout: float
) -> Completion:
    """Send ``payload`` under ``call``'s reservation; return the ``Completion``, or raise
    ``SendRefused`` (nothing sent) or ``ProviderError``."""
    counted = ProviderCall.objects.filter(
        pk=call.pk, state=ProviderCall.State.RESERVED, sends__lt=F("send_cap")
    ).update(sends=F("sends") + 1, state=ProviderCall.State.SENT, sent_at=timezone.now())
    if not counted:
        raise SendRefused("the call's send cap is spent")
    return complete(config, payload=payload, timeout=timeout)


def _reservation(call: ProviderCall) -> ledger.Reservation:
    return ledger.Reservation(
        day=call.day,
        principal_id=call.principal_id if call.principal_charged else None,
        micros=call.reserved_micros,
    )


def settle(
    call: ProviderCall,
    *,
    state: str,
    cost: Decimal | None = None,
    completion: Completion | None = None,
    error_class: str = "",
    validation: str = "",
    decisions: dict[str, Any],
) -> bool:
    """Record how ``call`` ended and, when its cost is known (``cost``, in US dollars), replace
    its reservation by that cost, in one transaction; a call settled already is left as it
    is. Returns whether this settled it."""
    with transaction.atomic():
        fields: dict[str, Any] = {
            "state": state,
            "error_class": error_class,
            "validation": validation,
            "decisions": decisions,
            "settled_at": timezone.now(),
        }
        if completion is not None:
            fields.update(
                answered_model=completion.model,
                input_tokens=completion.input_tokens,
                output_tokens=completion.output_tokens,
            )
        if cost is not None:
            fields["charged_micros"] = ledger.to_micros(cost)
        settled = ProviderCall.objects.filter(pk=call.pk, settled_at__isnull=True).update(**fields)
        if settled and cost is not None:
            ledger.settle(_reservation(call), usd=cost)
    return bool(settled)


def failed_call(call: ProviderCall, error: ProviderError, decisions: dict[str, Any]) -> bool:
    """Settle a call whose send raised ``error`` (a ``ProviderError``)."""
    if error.error_class in NOT_BILLED:
        return settle(
            call,
            state=ProviderCall.State.FAILED,
            cost=Decimal(0),
            error_class=error.error_class,
            decisions=decisions,
        )
    return settle(
        call, state=ProviderCall.State.UNCERTAIN, error_class=error.error_class, decisions=decisions
    )


def calls_recover(*, older_than_seconds: float, now: datetime | None = None) -> int:
    """Mark calls left reserved or sent by a worker that died as abandoned, keeping their
    reservations charged in full; return how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    return ProviderCall.objects.filter(
        state__in=[ProviderCall.State.RESERVED, ProviderCall.State.SENT],
        settled_at__isnull=True,
        created_at__lt=cutoff,
    ).update(state=ProviderCall.State.ABANDONED, error_class="worker_lost", settled_at=now)


# The verification stage that completes each proposal stage's review.
_VERIFIED_BY = {"proposal": "verification", "topic_proposal": "topic_verification"}


def answered_before(principal: User, request: Request) -> bool:
    """Whether a review of a proposal of exactly ``request``'s bytes was completed: its
    answer admitted nothing, or a verification of it was answered and accepted. The same
    bank would be asked the same question again, and pay for it; a review that broke off
    (a timeout, a reply out of schema) is not completed, and is asked again."""
    answered = ProviderCall.objects.filter(
        principal=principal, state=ProviderCall.State.SETTLED, validation="accepted"
    )
    return (
        answered.filter(
            stage=request.stage, request_digest=request.digest, decisions__admitted=0
        ).exists()
        or answered.filter(
            stage=_VERIFIED_BY[request.stage], decisions__proposal_request=request.digest
        ).exists()
    )
