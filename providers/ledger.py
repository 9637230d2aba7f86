"""The spend ledger: every provider call reserves before it is sent and settles after.

One ledger for every caller (formation and reconsolidation's provider path),
with a daily cap per principal and a global daily cap
(``REVERIE_PROVIDER_SPEND``). A reservation is the most the call can cost; a
call whose reservation does not fit under both caps is never sent. Settling
replaces the reservation by the cost the provider reported. A worker that
dies between the two leaves its reservation committed: the caps err on the
side of spending less.
"""

import datetime
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from providers.models import ProviderSpend

MICROS = Decimal(1_000_000)


class SpendRefused(Exception):
    error_class = "spend_cap"


@dataclass(frozen=True)
class Reservation:
    day: datetime.date
    # None for the machine administrator's evaluation runs: the global day only.
    principal_id: int | None
    micros: int


def to_micros(usd: Decimal | int | str) -> int:
    return int((Decimal(usd) * MICROS).to_integral_value(rounding=ROUND_CEILING))


def _caps() -> tuple[int, int]:
    spend = settings.REVERIE_PROVIDER_SPEND
    return to_micros(spend["daily_usd_per_principal"]), to_micros(spend["daily_usd_global"])


def _row(day: datetime.date, principal_id: int | None) -> ProviderSpend:
    """The day's row, created if missing; locked for the rest of the transaction."""
    rows = ProviderSpend.objects.select_for_update().filter(day=day, principal_id=principal_id)
    row = rows.first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            return ProviderSpend.objects.create(day=day, principal_id=principal_id)
    except IntegrityError:
        # Another worker created it first.
        return rows.get()


def _rows(day: datetime.date, principal_id: int | None) -> list[ProviderSpend]:
    """The day's global row and, for a principal, theirs, locked in that order: two
    reservations never wait on each other crosswise."""
    rows = [_row(day, None)]
    if principal_id is not None:
        rows.append(_row(day, principal_id))
    return rows


def reserve(*, principal: User | None, usd: Decimal) -> Reservation:
    """Reserve ``usd`` of today's spend for one call of ``principal`` (None: an evaluation
    run, under the global cap only), or raise SpendRefused."""
    micros = to_micros(usd)
    per_principal, overall = _caps()
    day = timezone.localdate()
    principal_id = principal.pk if principal is not None else None
    with transaction.atomic():
        rows = _rows(day, principal_id)
        if rows[0].committed_micros + micros > overall:
            raise SpendRefused("the global daily cap is reached")
        if len(rows) > 1 and rows[1].committed_micros + micros > per_principal:
            raise SpendRefused("the principal's daily cap is reached")
        ProviderSpend.objects.filter(pk__in=[row.pk for row in rows]).update(
            committed_micros=F("committed_micros") + micros, calls=F("calls") + 1
        )
    return Reservation(day=day, principal_id=principal_id, micros=micros)


def settle(reservation: Reservation, *, usd: Decimal) -> int:
    """Replace the reservation by what the call cost; returns the difference in micros."""
    difference = to_micros(usd) - reservation.micros
    if difference:
        with transaction.atomic():
            rows = _rows(reservation.day, reservation.principal_id)
            ProviderSpend.objects.filter(pk__in=[row.pk for row in rows]).update(
                committed_micros=F("committed_micros") + difference
            )
    return difference


def spent_today(principal: User | None = None) -> Decimal:
    """Committed spend today in US dollars: ``principal``'s, or everyone's."""
    row = ProviderSpend.objects.filter(
        day=timezone.localdate(), principal_id=principal.pk if principal else None
    ).first()
    return Decimal(row.committed_micros if row else 0) / MICROS
