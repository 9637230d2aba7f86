"""Reconsolidation's place in the maintenance slot: its schedule and its by-hand run.

Registered with ``common.schedules.maintenance_extend`` from the app's
``ready``, so that ``sync_schedules`` and ``run_maintenance --once`` include it
without ``memory`` importing this app.
"""

from django.conf import settings

from common.schedules import ScheduleSpec, every
from reconsolidation.services.scheduling import reconsolidation_tick


def schedules() -> list[ScheduleSpec]:
    return [
        {
            # Does nothing while the reconsolidation flag is off; see REVERIE_RECONSOLIDATION.
            "name": "reconsolidation.tick",
            "func": "reconsolidation.tasks.reconsolidation_tick_task",
            "repeats": -1,
            **every(settings.REVERIE_RECONSOLIDATION["tick_seconds"]),
        }
    ]


def run_once() -> str:
    """One tick, as one line of text for ``run_maintenance --once``."""
    report = reconsolidation_tick()
    if report.stopped in ("off", "kill_switch") and not report.passes:
        return f"reconsolidation: nothing done ({report.stopped.replace('_', ' ')})"
    applied = sum(p["outcomes"].get("applied", 0) for p in report.passes)
    line = (
        f"reconsolidation: {len(report.passes)} principal(s) passed, "
        f"{sum(p['read'] for p in report.passes)} memory(ies) read, "
        f"{applied} operation(s) applied"
    )
    if report.skipped:
        line += f", {len(report.skipped)} principal(s) skipped"
    if report.stopped:
        line += f"; stopped: {report.stopped.replace('_', ' ')}"
    return line
