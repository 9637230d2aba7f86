from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from accounts.models import User
from core.errors import not_found
from core.ids import parse_public_id
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Event, Run, Session
from memory.reach import FULL_REACH, Reach


def session_list(*, principal: User, reach: Reach = FULL_REACH) -> QuerySet[Session]:
    """The principal's sessions that ``reach`` sees (by their scope), most recent first."""
    sessions = Session.objects.filter(owner=principal)
    return reach.filter(sessions, sensitivity_field=None).order_by("-last_activity_at", "-id")


def session_summaries(*, principal: User) -> QuerySet[Session]:
    """The principal's sessions with ``first_message`` (its text) and ``messages`` (a count)."""
    # The subquery keeps its own owner filter: on SQLite nothing else would.
    first_message = (
        Event.objects.filter(
            owner=principal,
            session=OuterRef("pk"),
            event_type__in=MESSAGE_EVENT_TYPES,
            redacted_at__isnull=True,
        )
        .order_by("sequence")
        .values("text")[:1]
    )
    return session_list(principal=principal).annotate(
        first_message=Subquery(first_message),
        messages=Count("events", filter=Q(events__event_type__in=MESSAGE_EVENT_TYPES)),
    )


def session_get(
    *, principal: User, session_id: object, for_update: bool = False, reach: Reach = FULL_REACH
) -> Session:
    sessions = session_list(principal=principal, reach=reach)
    if for_update:
        sessions = sessions.select_for_update()
    session = sessions.filter(public_id=parse_public_id(session_id, "session_id")).first()
    if session is None:
        raise not_found("session")
    return session


def event_list(
    *,
    principal: User,
    session_id: object,
    after_sequence: int | None = None,
    reach: Reach = FULL_REACH,
) -> QuerySet[Event]:
    """The events of a session ``reach`` sees, in order: without the messages labelled
    sensitive for a reach kept from them. Their sequence numbers stay taken, so the
    numbering of what is shown skips them."""
    session = session_get(principal=principal, session_id=session_id, reach=reach)
    events = reach.filter(
        Event.objects.filter(owner=principal, session=session), scope_field=None
    ).order_by("sequence")
    if after_sequence is not None:
        events = events.filter(sequence__gt=after_sequence)
    return events


def event_get(
    *, principal: User, event_id: object, for_update: bool = False, reach: Reach = FULL_REACH
) -> Event:
    """The principal's event with this public id, if ``reach`` sees its conversation and
    its label; else ``not_found``, as for an id that does not exist."""
    events = reach.filter(Event.objects.filter(owner=principal), scope_field="session__scope")
    if for_update:
        events = events.select_for_update()
    event = events.filter(public_id=parse_public_id(event_id, "event_id")).first()
    if event is None:
        raise not_found("event")
    return event


def run_get(
    *, principal: User, run_id: object, for_update: bool = False, reach: Reach = FULL_REACH
) -> Run:
    runs = reach.filter(
        Run.objects.filter(owner=principal), scope_field="session__scope", sensitivity_field=None
    )
    if for_update:
        runs = runs.select_for_update()
    run = runs.filter(public_id=parse_public_id(run_id, "run_id")).select_related("session").first()
    if run is None:
        raise not_found("run")
    return run
