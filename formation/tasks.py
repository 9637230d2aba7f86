"""django-q2 entry points: thin wrappers that call one service."""

from formation.services import formation_sweep


def formation_sweep_task() -> list[str]:
    # The audits' ids only: q2 stores a task's result.
    return [str(formation.public_id) for formation in formation_sweep()]
