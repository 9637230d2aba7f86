"""Memory's place in the maintenance slot: its schedules and its by-hand run.

Registered with ``common.schedules.maintenance_extend`` from the app's ``ready``.
"""

from django_q.models import Schedule

from common.schedules import ScheduleSpec, every
from memory.services.access_log import access_record_purge_sweep
from memory.services.expiry import belief_expiry_sweep
from memory.services.idempotency import idempotency_purge_sweep
from memory.services.sensitivity_labels import sensitivity_labels_sweep
from memory.services.vectors import vectors_sweep


def schedules() -> list[ScheduleSpec]:
    return [
        {
            "name": "memory.belief_expiry_sweep",
            "func": "memory.tasks.belief_expiry_sweep_task",
            "schedule_type": Schedule.MINUTES,
            "minutes": 1,
            "repeats": -1,
        },
        {
            # Idempotency keys last a day; expired records are deleted, not just ignored.
            "name": "memory.idempotency_purge",
            "func": "memory.tasks.idempotency_purge_task",
            "schedule_type": Schedule.MINUTES,
            "minutes": 10,
            "repeats": -1,
        },
        {
            # Access records are kept REVERIE_ACCESS_RETENTION_DAYS; older ones are deleted.
            "name": "memory.access_purge",
            "func": "memory.tasks.access_record_purge_task",
            "schedule_type": Schedule.MINUTES,
            "minutes": 60,
            "repeats": -1,
        },
        {
            # After the sensitivity classifier changed, the labels it gave before are
            # computed again, a few owners at a time.
            "name": "memory.sensitivity_labels",
            "func": "memory.tasks.sensitivity_labels_sweep_task",
            "schedule_type": Schedule.MINUTES,
            "minutes": 10,
            "repeats": -1,
        },
        {
            # Memories written in the background (formation, reconsolidation) get their
            # vectors here; all of them again after the embedder changed. Every 30 s, as
            # often as django-q2 looks at its schedules.
            "name": "memory.vectors_sweep",
            "func": "memory.tasks.vectors_sweep_task",
            "repeats": -1,
            **every(30),
        },
    ]


def run_once() -> str:
    """The expiry sweep, the purges, the labelling sweep and the vector sweep, as lines of text for
    ``run_maintenance --once``."""
    return "\n".join(
        (
            f"expiry: {belief_expiry_sweep()} memory(ies) expired",
            f"idempotency: {idempotency_purge_sweep()} expired record(s) purged",
            f"access: {access_record_purge_sweep()} record(s) past retention purged",
            f"labels: {sensitivity_labels_sweep()} owner(s) labelled by the current classifier",
            f"vectors: {vectors_sweep()} memory(ies) embedded",
        )
    )
