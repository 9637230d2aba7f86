"""Which sessions are due for formation, found across owners without reading content."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypedDict

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from common.principal import discovery_context, principal_context
from formation.models import ConsolidationWatermark, FormationRetry
from memory.enums import EventType
from memory.models import Event, Session

# Flags read per page while looking for due sessions; pages keep coming until
# the batch is full, so a run of not-yet-idle sessions cannot hide older work.
PAGE_SIZE = 200


@dataclass(frozen=True)
class DueSession:
    owner_id: int
    session_public_id: str
    flagged_at: datetime


def flag_due_at(created_at: datetime, payload: object) -> datetime | None:
    """When a formation flag becomes due, or None when it can never be.

    The persisted ``not_before`` decides; a flag without one is due at its
    own time. A value that is not an ISO time with a timezone makes the flag
    ineligible rather than guessing (or failing the sweep).
    """
    raw = payload.get("not_before") if isinstance(payload, dict) else None
    if raw is None:
        return created_at
    if not isinstance(raw, str):
        return None
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        return None
    if timezone.is_naive(value):
        return None
    return value


class _Flag(TypedDict):
    """A formation flag as discovery reads it: ids, owner and times, never content."""

    id: int
    owner_id: int
    session_id: int
    created_at: datetime
    payload: Any


def _pending_flags(now: datetime) -> "QuerySet[Event, _Flag]":
    """Formation flags not yet covered by their session's watermark, oldest first, but for
    sessions whose consolidation failed and that wait for a retry."""
    covered = ConsolidationWatermark.objects.filter(
        session_id=OuterRef("session_id"), sequence__gte=OuterRef("sequence")
    )
    waiting = FormationRetry.objects.filter(session_id=OuterRef("session_id")).filter(
        Q(gave_up_at__isnull=False) | Q(next_attempt_at__gt=now)
    )
    return (
        Event.objects.filter(event_type=EventType.FORMATION_REQUESTED)
        .exclude(Exists(covered))
        .exclude(Exists(waiting))
        .order_by("created_at", "id")
        .values("id", "owner_id", "session_id", "created_at", "payload")
    )


def _idle_sessions(owner: User, session_ids: list[int], cutoff: datetime) -> dict[int, Any]:
    """Public ids of those of the sessions that are closed or have been quiet since ``cutoff``.

    Read inside the owner's context: discovery itself cannot see sessions.
    """
    with principal_context(owner):
        return dict(
            Session.objects.filter(owner=owner, pk__in=session_ids)
            .filter(Q(closed_at__isnull=False) | Q(last_activity_at__lte=cutoff))
            .values_list("pk", "public_id")
        )


def formation_due(*, batch: int | None = None, now: datetime | None = None) -> list[DueSession]:
    """Sessions due for formation, oldest flag first, at most ``batch`` of them.

    A session is due when a formation flag of it is due, its watermark is
    behind that flag, and it is closed or has been idle for the idle window.
    Flags are discovered across owners through the content-free discovery
    policy; each session's idleness is then read inside its owner's context.
    """
    batch = settings.REVERIE_FORMATION["batch"] if batch is None else batch
    if batch <= 0:
        return []
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.REVERIE_FORMATION["idle_seconds"])
    owners: dict[int, User] = {}
    due: list[DueSession] = []
    seen: set[int] = set()
    after: tuple[datetime, int] | None = None
    while len(due) < batch:
        with discovery_context("formation"):
            flags = _pending_flags(now)
            if after is not None:
                flags = flags.filter(
                    Q(created_at__gt=after[0]) | Q(created_at=after[0], id__gt=after[1])
                )
            page = list(flags[:PAGE_SIZE])
        if not page:
            break
        after = (page[-1]["created_at"], page[-1]["id"])
        ripe: list[_Flag] = []
        for flag in page:
            due_at = flag_due_at(flag["created_at"], flag["payload"])
            if flag["session_id"] not in seen and due_at is not None and due_at <= now:
                seen.add(flag["session_id"])
                ripe.append(flag)
        owners.update(User.objects.in_bulk({flag["owner_id"] for flag in ripe} - set(owners)))
        idle: dict[int, Any] = {}
        for owner_id in {flag["owner_id"] for flag in ripe}:
            idle.update(
                _idle_sessions(
                    owners[owner_id],
                    [flag["session_id"] for flag in ripe if flag["owner_id"] == owner_id],
                    cutoff,
                )
            )
        for flag in ripe:
            if flag["session_id"] in idle:
                due.append(
                    DueSession(flag["owner_id"], str(idle[flag["session_id"]]), flag["created_at"])
                )
                if len(due) == batch:
                    break
    return due


def formation_failure(*, principal: User, session: Session) -> FormationRetry | None:
    """The session's pending retry after a failed consolidation, or None."""
    return FormationRetry.objects.filter(owner=principal, session=session).first()


def sessions_given_up(sessions: QuerySet[Session], *, principal: User) -> QuerySet[Session]:
    """``sessions`` (the principal's) with ``formation_gave_up``: whether formation failed
    on each until it gave up."""
    gave_up = FormationRetry.objects.filter(
        owner=principal, session=OuterRef("pk"), gave_up_at__isnull=False
    )
    return sessions.annotate(formation_gave_up=Exists(gave_up))
