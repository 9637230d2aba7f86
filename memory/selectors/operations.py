"""Content-free figures for operators: counts and queue depth, never text."""

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import Sum
from django.utils import timezone
from django_q.brokers import get_broker

from accounts.models import User
from memory.enums import BeliefStatus
from memory.models import BeliefStatusCount, MaintenanceDue
from memory.selectors.access import access_record_failures


def belief_status_totals() -> dict[str, int]:
    """Beliefs per status across all principals, from the content-free counts."""
    totals: dict[str, int] = dict.fromkeys(BeliefStatus.values, 0)
    for row in BeliefStatusCount.objects.values("status").annotate(total=Sum("count")):
        totals[row["status"]] = row["total"]
    return totals


def queue_depth() -> int:
    """Tasks waiting in the django-q2 broker."""
    size: int = get_broker().queue_size()
    return size


# Figures of apps built on ``memory`` for the same overview, registered from their
# ``AppConfig.ready``: each is ``figures(now) -> dict``, merged into the overview.
_extensions: list[Callable[[datetime], dict[str, Any]]] = []


def overview_extend(figures: Callable[[datetime], dict[str, Any]]) -> None:
    """Add an app's content-free figures to the operators' overview."""
    if figures not in _extensions:
        _extensions.append(figures)


def memory_overview(*, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    due = MaintenanceDue.objects.all()
    return {
        "principals": User.objects.filter(is_active=True).count(),
        "belief_totals": belief_status_totals(),
        "queue_depth": queue_depth(),
        "maintenance_due_now": due.filter(due_at__lte=now).count(),
        "maintenance_scheduled": due.count(),
        "access_failures": access_record_failures(today=timezone.localdate(now)),
        **{name: value for figures in _extensions for name, value in figures(now).items()},
    }
