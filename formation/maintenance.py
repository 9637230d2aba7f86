"""Formation's place in the maintenance slot: its schedule and its by-hand run.

Registered with ``common.schedules.maintenance_extend`` from the app's ``ready``, so
that ``sync_schedules`` and ``run_maintenance --once`` include it without ``memory``
importing this app.
"""

from django.conf import settings

from common.schedules import ScheduleSpec, every
from formation.services import formation_sweep


def schedules() -> list[ScheduleSpec]:
    return [
        {
            # Consolidates sessions that went quiet; see REVERIE_FORMATION. The name is the
            # one the schedule had before formation was an app of its own: sync_schedules
            # finds the row by it and points it at this task.
            "name": "memory.formation_sweep",
            "func": "formation.tasks.formation_sweep_task",
            "repeats": -1,
            **every(settings.REVERIE_FORMATION["sweep_seconds"]),
        }
    ]


def run_once() -> str:
    """One sweep, as one line of text for ``run_maintenance --once``."""
    audits = formation_sweep()
    committed = sum(audit.committed_count for audit in audits)
    return (
        f"formation: {len(audits)} session(s) consolidated, {committed} memory(ies) formed, "
        f"{sum(a.reinforced_count for a in audits)} reinforced, "
        f"{sum(a.rejected_count for a in audits)} proposal(s) rejected"
    )
