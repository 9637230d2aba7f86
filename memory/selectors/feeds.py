"""Change feeds: rows changed after a position, oldest change first, at least once.

A row carries the time its transaction wrote it, not the time that
transaction committed: a slow writer can commit a change stamped earlier than
rows a reader has already been given. A feed therefore never moves its
position past ``SETTLE`` ago; rows changed more recently are handed out again
on the next call (callers deduplicate by id and revision).
"""

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

SETTLE = timedelta(seconds=10)


def change_feed(
    rows: QuerySet[Any],
    *,
    after: tuple[datetime, int] | None = None,
    limit: int,
    now: datetime | None = None,
) -> tuple[list[Any], tuple[datetime, int] | None]:
    """``rows`` (a QuerySet with ``updated_at``) changed after ``after``, oldest change first.

    A position is ``(updated_at, row id)``. Returns the rows and the position
    to ask from next time.
    """
    if after is not None:
        changed_at, row_id = after
        rows = rows.filter(Q(updated_at__gt=changed_at) | Q(updated_at=changed_at, pk__gt=row_id))
    found = list(rows.order_by("updated_at", "pk")[:limit])
    horizon = (now or timezone.now()) - SETTLE
    settled = [row for row in found if row.updated_at <= horizon]
    position = (settled[-1].updated_at, settled[-1].pk) if settled else after
    return found, position
