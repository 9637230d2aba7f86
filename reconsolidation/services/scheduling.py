"""The scheduled reconsolidation tick: fair passes over due principals within shared budgets.

Who is due is found across principals through content-free rows only (the
belief status counts, cursors and leases: ids, times and figures), so no
principal context is needed and none is opened for it. Each principal's pass
then runs inside that principal's own context, one principal at a time, never
in a transaction shared with another.
"""

import logging
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from accounts.models import User
from common.selectors.flags import flag_enabled
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import BeliefStatusCount
from reconsolidation.assisted.calls import calls_recover
from reconsolidation.assisted.execution import AssistedReport, assisted_pass
from reconsolidation.models import Cursor, Lease

from .budgets import budget_prune, budget_remaining, budget_reserve, budget_settle
from .passes import default_holder, reconsolidation_pass

logger = logging.getLogger(__name__)


class AssistedEntry(TypedDict):
    """What one model-assisted review of a pass did."""

    stopped: str
    calls: int
    outcomes: dict[str, int]


class PassEntry(TypedDict):
    """What one pass of a tick did, content-free."""

    principal_id: int
    read: int
    planned: int
    outcomes: dict[str, int]
    stopped: str
    # By review ("merges", "topics"), when the model-assisted step ran.
    assisted: NotRequired[dict[str, AssistedEntry]]


@dataclass
class TickReport:
    """What a tick did, content-free: principal ids, counts and reasons."""

    # Why the tick stopped early: "off", "kill_switch", "deadline", "budget_exhausted".
    stopped: str = ""
    # One entry per pass run.
    passes: list[PassEntry] = field(default_factory=list)
    # Principals due but not passed: {principal id: "budget" | "failed"}.
    skipped: dict[int, str] = field(default_factory=dict)
    # Provider calls found abandoned by a worker that died, their charges kept.
    recovered_calls: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def principals_due(
    limit: int, *, now: datetime | None = None, holder: str | None = None
) -> list[User]:
    """Principals due a pass, fairest first, at most ``limit``; ids only (``.only("pk")``).

    Due: the principal has live beliefs, and has never had a pass, is in the
    middle of a full scan, or had its last pass ``pass_interval_seconds`` ago.
    Never-passed principals come first, then the oldest last pass: a
    round-robin in which every principal's turn comes. Principals whose bank
    another holder has a live lease on are left to that holder.
    """
    now = now or timezone.now()
    holder = holder or default_holder()
    interval = timedelta(seconds=settings.REVERIE_RECONSOLIDATION["pass_interval_seconds"])
    cursor = Cursor.objects.filter(principal=OuterRef("pk"))
    return list(
        get_user_model()
        .objects.only("pk")
        .filter(
            Exists(
                BeliefStatusCount.objects.filter(
                    owner=OuterRef("pk"), status__in=LIVE_BELIEF_STATUSES, count__gt=0
                )
            )
        )
        .exclude(
            Exists(
                Lease.objects.filter(principal=OuterRef("pk"), expires_at__gt=now).exclude(
                    holder=holder
                )
            )
        )
        .annotate(
            last_pass_at=Subquery(cursor.values("last_pass_at")[:1]),
            scanned_key=Subquery(cursor.values("scanned_key")[:1]),
        )
        .filter(
            Q(last_pass_at__isnull=True)
            | Q(last_pass_at__lte=now - interval)
            | Q(scanned_key__gt="")
        )
        .order_by(F("last_pass_at").asc(nulls_first=True), "pk")[:limit]
    )


def _stop_reason() -> str:
    """Why no new pass may start now, or ""; read fresh before every principal."""
    if flag_enabled("maintenance_kill_switch"):
        return "kill_switch"
    if not flag_enabled("reconsolidation"):
        return "off"
    return ""


# The least time left in a tick for which a model-assisted review is started.
ASSISTED_MIN_SECONDS = 5


def _assisted(principal: User, holder: str, seconds: float) -> dict[str, AssistedReport] | None:
    try:
        return assisted_pass(principal=principal, holder=holder, deadline_seconds=seconds)
    except Exception:
        # Its calls are settled or kept reserved by now; the next tick recovers the rest.
        logger.exception("model-assisted review failed for principal %s", principal.pk)
        return None


def reconsolidation_tick(
    *,
    now: datetime | None = None,
    deadline_seconds: float | None = None,
    holder: str | None = None,
    limit: int | None = None,
) -> TickReport:
    """Pass over the due principals in turn until the deadline; return a ``TickReport``.

    Each pass reserves a slice's worth of the shared budget first and settles
    with the beliefs it read; a principal over its share is skipped (and stays
    first in line), and an exhausted shared budget ends the tick. The deadline
    and the flags are checked between principals: a pass under way finishes
    its bounded slice, and stops between groups itself on the kill switch.
    """
    config = settings.REVERIE_RECONSOLIDATION
    deadline = config["tick_deadline_seconds"] if deadline_seconds is None else deadline_seconds
    limit = config["principals_per_tick"] if limit is None else limit
    units = config["slice_beliefs"]
    holder = holder or default_holder()
    report = TickReport(stopped=_stop_reason())
    if report.stopped:
        return report
    started = time.monotonic()
    budget_prune(now=now)
    report.recovered_calls = calls_recover(older_than_seconds=2 * config["lease_seconds"], now=now)
    for index, principal in enumerate(principals_due(limit, now=now, holder=holder)):
        if time.monotonic() - started >= deadline:
            report.stopped = "deadline"
            break
        if index and (reason := _stop_reason()):
            report.stopped = reason
            break
        reservation = budget_reserve(principal, units, now=now)
        if reservation is None:
            if budget_remaining(now=now) < units:
                report.stopped = "budget_exhausted"
                break
            report.skipped[principal.pk] = "budget"
            continue
        try:
            result = reconsolidation_pass(principal=principal, holder=holder, slice_size=units)
        except Exception:
            # One bank's failure must not starve the others. Its usage is
            # unknown, so the reservation stays charged in full.
            logger.exception("reconsolidation pass failed for principal %s", principal.pk)
            report.skipped[principal.pk] = "failed"
            continue
        budget_settle(reservation, result.read)
        entry: PassEntry = {
            "principal_id": principal.pk,
            "read": result.read,
            "planned": result.planned,
            "outcomes": dict(result.outcomes),
            "stopped": result.stopped,
        }
        left = deadline - (time.monotonic() - started)
        if not result.stopped and left >= ASSISTED_MIN_SECONDS:
            assisted = _assisted(principal, holder, left)
            if assisted is not None:
                entry["assisted"] = {
                    kind: {
                        "stopped": review.stopped,
                        "calls": review.calls,
                        "outcomes": review.outcomes,
                    }
                    for kind, review in assisted.items()
                }
        report.passes.append(entry)
        if result.stopped == "kill_switch":
            report.stopped = "kill_switch"
            break
    return report
