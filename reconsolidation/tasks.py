"""django-q2 entry points: thin wrappers that call one service."""

from typing import Any

from reconsolidation.services.scheduling import reconsolidation_tick


def reconsolidation_tick_task() -> dict[str, Any]:
    # Content-free (ids, counts, reasons): q2 stores a task's result.
    return reconsolidation_tick().as_dict()
