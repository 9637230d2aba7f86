"""What planners read of the originals: live beliefs of one owner as ``SourceView``s, or as
``ClaimRow``s where only their claims are weighed."""

from collections.abc import Collection
from typing import Any, NamedTuple

from django.db.models import Count, Max, Q

from accounts.models import User
from core.lookups import AnyOf
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief
from reconsolidation.consistent_subjects import SubjectMark
from reconsolidation.planning import SourceView

# In the order of the view's fields, ``pk`` first.
_FIELDS = [name for name in SourceView.__dataclass_fields__ if name != "pk"]


def source_views(principal: User, *conditions: Q | AnyOf, **lookup: Any) -> list[SourceView]:
    """The principal's live beliefs matching ``conditions`` and ``lookup``, oldest first.
    The caller holds the principal's context."""
    rows = (
        Belief.objects.filter(
            *conditions, owner=principal, status__in=LIVE_BELIEF_STATUSES, **lookup
        )
        .order_by("id")
        .values_list("id", *_FIELDS)
    )
    # Positional: a pass builds a view of every belief of the bank at least once.
    return [SourceView(*row) for row in rows]


class ClaimRow(NamedTuple):
    """What ``reconsolidation.planning.contradicts`` weighs of one original belief."""

    pk: int
    subject: str
    scope: str
    polarity: str
    statement: str


def claim_rows(principal: User, **lookup: Any) -> list[ClaimRow]:
    """The principal's live beliefs matching ``lookup`` as ``ClaimRow``s, in no particular
    order. A fraction of the cost of ``source_views`` a row (no times, ids or view to
    build): for weighing every belief of a popular subject, which a plan seldom takes. The
    caller holds the principal's context."""
    rows = Belief.objects.filter(
        owner=principal, status__in=LIVE_BELIEF_STATUSES, **lookup
    ).values_list("id", *ClaimRow._fields[1:])
    return [ClaimRow._make(row) for row in rows]


def subject_marks(principal: User, subjects: Collection[str]) -> dict[str, SubjectMark]:
    """``{subject: (live beliefs, newest change)}`` of the principal's ``subjects`` that
    have live beliefs: what changes whenever one of them is added, changed or retired.
    The caller holds the principal's context."""
    rows = (
        Belief.objects.filter(
            owner=principal, status__in=LIVE_BELIEF_STATUSES, subject__in=subjects
        )
        .order_by()
        .values("subject")
        .annotate(live=Count("id"), newest=Max("updated_at"))
        .values_list("subject", "live", "newest")
    )
    return {subject: (live, newest) for subject, live, newest in rows}
