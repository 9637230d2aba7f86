"""What planners read of the originals: live beliefs of one owner as ``SourceView``s."""

from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief
from reconsolidation.planning import SourceView

_FIELDS = [name for name in SourceView.__dataclass_fields__ if name != "pk"]


def source_views(principal, **lookup):
    """The principal's live beliefs matching ``lookup``, oldest first. The caller holds the
    principal's context."""
    rows = (
        Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES, **lookup)
        .order_by("id")
        .values("id", *_FIELDS)
    )
    return [SourceView(pk=row.pop("id"), **row) for row in rows]
