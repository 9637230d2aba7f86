"""The maintenance schedules, declared in code and synced into django-q2's table."""

from collections.abc import Callable
from typing import Any

from django_q.models import Schedule

# One schedule as django-q2's Schedule takes it: "name" and "func" with the Schedule
# fields of its timing and repeats.
ScheduleSpec = dict[str, Any]


def every(seconds: int) -> ScheduleSpec:
    """Schedule fields for "every ``seconds``": whole minutes, or a cron with seconds."""
    if seconds >= 60 and seconds % 60 == 0:
        return {"schedule_type": Schedule.MINUTES, "minutes": seconds // 60, "cron": None}
    return {"schedule_type": Schedule.CRON, "cron": f"* * * * * */{seconds}", "minutes": None}


# The apps' maintenance, registered from their ``AppConfig.ready``: this layer never
# imports them. Each is (schedules, run_once): ``schedules()`` returns schedule specs
# like the ones below; ``run_once()`` does the work once by hand and returns lines of
# text for ``run_maintenance --once``.
_extensions: list[tuple[Callable[[], list[ScheduleSpec]], Callable[[], str]]] = []


def maintenance_extend(
    *, schedules: Callable[[], list[ScheduleSpec]], run_once: Callable[[], str]
) -> None:
    """Add an app's maintenance to the declared schedules and to ``run_maintenance``."""
    if (schedules, run_once) not in _extensions:
        _extensions.append((schedules, run_once))


def maintenance_run_once_hooks() -> list[Callable[[], str]]:
    return [run_once for _, run_once in _extensions]


def declared_schedules() -> list[ScheduleSpec]:
    return [
        *SCHEDULES,
        *(spec for schedules, _ in _extensions for spec in schedules()),
    ]


SCHEDULES: list[ScheduleSpec] = [
    {
        # Sign-in counters whose window has ended, in the database without Redis.
        "name": "accounts.sign_in_purge",
        "func": "accounts.tasks.login_throttle_purge_task",
        "schedule_type": Schedule.MINUTES,
        "minutes": 10,
        "repeats": -1,
    },
    {
        # Readiness (/readyz) looks for this to know a worker is running. The name is the
        # one it had before the shared layer was an app of its own: sync_schedules finds
        # the row by it.
        "name": "memory.worker_heartbeat",
        "func": "common.tasks.worker_heartbeat_task",
        "schedule_type": Schedule.MINUTES,
        "minutes": 1,
        "repeats": -1,
    },
]


def schedules_sync() -> list[str]:
    """Create or update every declared schedule; running it again changes nothing."""
    specs = declared_schedules()
    for spec in specs:
        values = {key: value for key, value in spec.items() if key != "name"}
        Schedule.objects.update_or_create(name=spec["name"], defaults=values)
    return [spec["name"] for spec in specs]
