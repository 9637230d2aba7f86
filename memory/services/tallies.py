"""Content-free counts of beliefs by status, for operators.

Belief rows are invisible across principals (row-level security), so the
operator admin reads these counts instead. Every service that creates a belief
or changes its status shifts them in the same transaction.
"""

from collections import Counter
from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import F

from memory.models import BeliefStatusCount


def belief_status_count_shift(*, owner_id: int, changes: Mapping[str, int]) -> None:
    """Apply ``changes`` ({status: delta}) to the owner's counts."""
    for status, delta in Counter(changes).items():
        if delta == 0:
            continue
        counts = BeliefStatusCount.objects.filter(owner_id=owner_id, status=status)
        # UPDATE ... SET count = count + delta is atomic under concurrent shifts.
        if counts.update(count=F("count") + delta):
            continue
        try:
            # Savepoint: a concurrent first insert must not abort the outer unit of work.
            with transaction.atomic():
                BeliefStatusCount.objects.create(owner_id=owner_id, status=status, count=delta)
        except IntegrityError:
            counts.update(count=F("count") + delta)


def transition(old_status: str, new_status: str) -> Counter[str]:
    """The count changes of one belief moving from ``old_status`` to ``new_status``."""
    changes = Counter({new_status: 1})
    if old_status:
        changes[old_status] -= 1
    return changes
