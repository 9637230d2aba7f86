"""The admission service: the one way a request of model-assisted reconsolidation gets a
reservation.

In one transaction it holds the owner's row (an opt-out or an erasure waits
for it, and it waits for them), checks the capability and the caller's lease,
prepares the request again from the current originals and policy, and
reserves its price in the spend ledger, recording the call. It returns only
after that commit: whatever is sent later was admitted, priced and reserved
as exactly those bytes.
"""

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from common.selectors.flags import flag_enabled
from providers import ledger
from reconsolidation.models import Lease, ProviderCall

from .preparation import POLICY_VERSION, Request

CAPABILITY = "reconsolidation_provider"


class Refused(Exception):
    """Nothing was reserved; ``error_class`` says why, in a closed code."""

    def __init__(self, error_class: str) -> None:
        super().__init__(error_class)
        self.error_class = error_class


def admit(
    principal: User,
    *,
    prepare: Callable[[], Request],
    expected: Request,
    holder: str,
    evaluation: bool = False,
    qualifying: bool = False,
) -> ProviderCall:
    """Reserve and record the call that sends ``expected`` (a prepared ``Request``); return
    the committed ``ProviderCall``, or raise ``Refused``.

    ``prepare`` prepares the same request again; it runs inside the transaction,
    and only identical bytes are admitted. ``holder`` must hold the principal's
    lease. An evaluation run (``evaluation``) is charged to the global cap only.
    Provider qualification (``qualifying``) runs while the capability is off, since
    it is the capability being qualified; everything else holds as it does live.
    """
    now = timezone.now()
    with principal_transaction(principal):
        if not get_user_model().objects.select_for_update().filter(pk=principal.pk).exists():
            raise Refused("erased")
        if not evaluation and not qualifying and not flag_enabled(CAPABILITY):
            raise Refused("capability_off")
        if not Lease.objects.filter(
            principal=principal, holder=holder, expires_at__gt=now
        ).exists():
            raise Refused("lease_lost")
        fresh = prepare()
        if fresh.deferred:
            raise Refused(fresh.deferred)
        if fresh.payload != expected.payload:
            raise Refused("changed_since_preparation")
        try:
            reservation = ledger.reserve(
                principal=None if evaluation else principal, usd=fresh.price
            )
        except ledger.SpendRefused as refusal:
            raise Refused(refusal.error_class) from None
        return ProviderCall.objects.create(
            principal=principal,
            stage=fresh.stage,
            binding=fresh.binding,
            policy_version=POLICY_VERSION,
            request_digest=fresh.digest,
            request_length=len(fresh.payload),
            proposal_digest=fresh.proposal_digest,
            day=reservation.day,
            principal_charged=reservation.principal_id is not None,
            reserved_micros=reservation.micros,
            created_at=now,
        )
