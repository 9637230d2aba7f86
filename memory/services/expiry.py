"""The expiry sweep: live beliefs past ``expires_at`` become ``expired``."""

import logging
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Min
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from common.selectors.flags import flag_enabled
from memory.enums import LIVE_BELIEF_STATUSES, Actor, AuditAction, BeliefStatus
from memory.models import Belief, MaintenanceDue

from .records import set_status

logger = logging.getLogger(__name__)


def belief_expire_due(*, principal: User, now: datetime | None = None) -> int:
    """Expire the principal's live beliefs whose ``expires_at`` has passed; return how many.

    Also moves the principal's expiry due time to its next pending expiry, or
    drops it when none remains.
    """
    now = now or timezone.now()
    with principal_transaction(principal):
        # Locking the due row claims this principal's sweep: a second worker
        # skips it rather than expiring the same beliefs twice.
        due = (
            MaintenanceDue.objects.select_for_update(skip_locked=True)
            .filter(owner=principal, kind=MaintenanceDue.Kind.BELIEF_EXPIRY)
            .first()
        )
        if due is None:
            return 0
        expiring = Belief.objects.select_for_update().filter(
            owner=principal, status__in=LIVE_BELIEF_STATUSES, expires_at__lte=now
        )
        count = 0
        for belief in expiring.order_by("expires_at", "id"):
            set_status(belief, BeliefStatus.EXPIRED, action=AuditAction.EXPIRED, actor=Actor.SYSTEM)
            count += 1
        next_due = Belief.objects.filter(
            owner=principal, status__in=LIVE_BELIEF_STATUSES, expires_at__isnull=False
        ).aggregate(next=Min("expires_at"))["next"]
        if next_due is None:
            due.delete()
        else:
            due.due_at = next_due
            due.save(update_fields=["due_at"])
        return count


def belief_expiry_sweep(*, now: datetime | None = None, batch: int | None = None) -> int:
    """Expire due beliefs across principals, oldest due first; return how many.

    Discovery reads only the content-free ``MaintenanceDue`` table (owner ids
    and times); each principal's beliefs are then expired inside that
    principal's own context.
    """
    if flag_enabled("maintenance_kill_switch"):
        logger.info("expiry sweep skipped: maintenance kill switch is on")
        return 0
    now = now or timezone.now()
    batch = settings.REVERIE_LIMITS["expiry_sweep_batch"] if batch is None else batch
    if batch <= 0:
        return 0
    owner_ids = list(
        MaintenanceDue.objects.filter(kind=MaintenanceDue.Kind.BELIEF_EXPIRY, due_at__lte=now)
        .order_by("due_at", "owner_id")
        .values_list("owner_id", flat=True)[:batch]
    )
    expired = 0
    for principal in get_user_model().objects.filter(pk__in=owner_ids).order_by("pk"):
        expired += belief_expire_due(principal=principal, now=now)
    return expired
