from django.db.models import Count, OuterRef, Q, Subquery

from memory.enums import MESSAGE_EVENT_TYPES
from memory.errors import not_found
from memory.models import Event, Run, Session

from ._ids import parse_public_id


def session_list(*, principal):
    return Session.objects.filter(owner=principal).order_by("-last_activity_at", "-id")


def session_summaries(*, principal):
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


def session_get(*, principal, session_id, for_update=False):
    sessions = session_list(principal=principal)
    if for_update:
        sessions = sessions.select_for_update()
    session = sessions.filter(public_id=parse_public_id(session_id, "session_id")).first()
    if session is None:
        raise not_found("session")
    return session


def event_list(*, principal, session_id, after_sequence=None):
    session = session_get(principal=principal, session_id=session_id)
    events = Event.objects.filter(owner=principal, session=session).order_by("sequence")
    if after_sequence is not None:
        events = events.filter(sequence__gt=after_sequence)
    return events


def event_get(*, principal, event_id, for_update=False):
    events = Event.objects.filter(owner=principal)
    if for_update:
        events = events.select_for_update()
    event = events.filter(public_id=parse_public_id(event_id, "event_id")).first()
    if event is None:
        raise not_found("event")
    return event


def run_get(*, principal, run_id, for_update=False):
    runs = Run.objects.filter(owner=principal)
    if for_update:
        runs = runs.select_for_update()
    run = runs.filter(public_id=parse_public_id(run_id, "run_id")).select_related("session").first()
    if run is None:
        raise not_found("run")
    return run
