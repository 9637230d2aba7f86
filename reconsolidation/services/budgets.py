"""Shared work budgets: reserve before a pass, settle after.

Budgets are counted in units of work (beliefs read) over a rolling day, for
all principals together and for each principal's share. A reservation counts
in full until it is settled with a known usage; a pass that died, or whose
usage is unknown, keeps charging what it reserved. Only ids, times and
figures are read and written here, so one worker may weigh every principal's
spend without seeing any memory.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from core.errors import conflict, validation_error
from reconsolidation.models import BudgetReservation

WINDOW = timedelta(days=1)

# pg_advisory_xact_lock(namespace, key): one lock for the whole shared budget.
BUDGET_LOCK = (0x52565242, 1)


def _charged(since: datetime, principal: User | None = None) -> int:
    """Units charged since ``since``: the usage of settled reservations, else their units."""
    rows = BudgetReservation.objects.filter(created_at__gt=since)
    if principal is not None:
        rows = rows.filter(principal=principal)
    total: int = rows.aggregate(total=Coalesce(Sum(Coalesce("used", "units")), 0))["total"]
    return total


def _limits() -> tuple[int, int]:
    config = settings.REVERIE_RECONSOLIDATION
    return config["budget_units_per_day"], config["budget_units_per_principal_per_day"]


def budget_remaining(principal: User | None = None, *, now: datetime | None = None) -> int:
    """Units still free in the window: of the shared budget, or of ``principal``'s share
    (never more than the shared budget has left)."""
    since = (now or timezone.now()) - WINDOW
    shared, share = _limits()
    remaining = max(shared - _charged(since), 0)
    if principal is not None:
        remaining = min(remaining, max(share - _charged(since, principal), 0))
    return remaining


def _lock_budget() -> None:
    """Serialise reservations across workers.

    Two workers that each read the charges and then insert would both see the
    same room and together overspend it. PostgreSQL: a transaction-scoped
    advisory lock, held until the reservation commits. SQLite: the IMMEDIATE
    transaction already holds the database's write lock.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(BUDGET_LOCK))


def budget_reserve(
    principal: User, units: int, *, now: datetime | None = None
) -> BudgetReservation | None:
    """Reserve ``units`` for work on ``principal``'s bank; None when that would exceed the
    shared budget or the principal's share of it."""
    if not isinstance(units, int) or isinstance(units, bool) or units < 1:
        raise validation_error("units must be a positive whole number.", field="units")
    now = now or timezone.now()
    with transaction.atomic():
        _lock_budget()
        if budget_remaining(principal, now=now) < units:
            return None
        return BudgetReservation.objects.create(principal=principal, units=units, created_at=now)


def budget_settle(
    reservation: BudgetReservation, used: int | None, *, now: datetime | None = None
) -> BudgetReservation:
    """Record what the reserved work used; ``used=None`` (unknown) keeps the full reservation.

    Usage below the reservation lowers the charge. Usage above it is charged
    as it was, so that an overrun makes the next reservations fail sooner
    instead of disappearing. A reservation is settled once.
    """
    if used is not None and (not isinstance(used, int) or isinstance(used, bool) or used < 0):
        raise validation_error("used must be a whole number of units, or None.", field="used")
    now = now or timezone.now()
    # Conditional on the state: of two settlements racing, exactly one lands.
    settled = BudgetReservation.objects.filter(
        pk=reservation.pk, state=BudgetReservation.State.RESERVED
    ).update(state=BudgetReservation.State.SETTLED, used=used, settled_at=now)
    if not settled:
        raise conflict("The reservation is settled already.", reservation=reservation.pk)
    reservation.state, reservation.used, reservation.settled_at = (
        BudgetReservation.State.SETTLED,
        used,
        now,
    )
    return reservation


def budget_prune(*, now: datetime | None = None) -> int:
    """Forget reservations that left the window (they no longer count); return how many."""
    since = (now or timezone.now()) - WINDOW
    deleted, _ = BudgetReservation.objects.filter(created_at__lte=since).delete()
    return deleted
