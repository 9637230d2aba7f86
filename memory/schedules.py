"""The maintenance schedules, declared in code and synced into django-q2's table."""

from django_q.models import Schedule

SCHEDULES = [
    {
        "name": "memory.belief_expiry_sweep",
        "func": "memory.tasks.belief_expiry_sweep_task",
        "schedule_type": Schedule.MINUTES,
        "minutes": 1,
        "repeats": -1,
    },
    {
        # Readiness (/readyz) looks for this to know a worker is running.
        "name": "memory.worker_heartbeat",
        "func": "memory.tasks.worker_heartbeat_task",
        "schedule_type": Schedule.MINUTES,
        "minutes": 1,
        "repeats": -1,
    },
]


def schedules_sync():
    """Create or update every declared schedule; running it again changes nothing."""
    for spec in SCHEDULES:
        values = {key: value for key, value in spec.items() if key != "name"}
        Schedule.objects.update_or_create(name=spec["name"], defaults=values)
    return [spec["name"] for spec in SCHEDULES]
