"""Content-free figures for operators: counts and queue depth, never text."""

from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils import timezone
from django_q.brokers import get_broker

from memory.enums import BeliefStatus
from memory.models import BeliefStatusCount, MaintenanceDue
from memory.selectors.access import access_record_failures


def belief_status_totals():
    """Beliefs per status across all principals, from the content-free counts."""
    totals = dict.fromkeys(BeliefStatus.values, 0)
    for row in BeliefStatusCount.objects.values("status").annotate(total=Sum("count")):
        totals[row["status"]] = row["total"]
    return totals


def queue_depth():
    """Tasks waiting in the django-q2 broker."""
    return get_broker().queue_size()


# Figures of apps built on ``memory`` for the same overview, registered from their
# ``AppConfig.ready``: each is ``figures(now) -> dict``, merged into the overview.
_extensions = []


def overview_extend(figures):
    """Add an app's content-free figures to the operators' overview."""
    if figures not in _extensions:
        _extensions.append(figures)


def memory_overview(*, now=None):
    now = now or timezone.now()
    due = MaintenanceDue.objects.all()
    return {
        "principals": get_user_model().objects.filter(is_active=True).count(),
        "belief_totals": belief_status_totals(),
        "queue_depth": queue_depth(),
        "maintenance_due_now": due.filter(due_at__lte=now).count(),
        "maintenance_scheduled": due.count(),
        "access_failures": access_record_failures(today=timezone.localdate(now)),
        **{name: value for figures in _extensions for name, value in figures(now).items()},
    }
