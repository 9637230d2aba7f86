"""Erasure: of a belief, of messages, of a whole session.

Erasing a message or a session is the one mutation the event log allows: its
parts and text are removed and ``redacted_at`` is set. Beliefs formed from
erased messages are erased with them, so nothing the owner removed survives as
a copied excerpt.
"""

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import validation_error
from memory.changes import messages_erased
from memory.enums import MESSAGE_EVENT_TYPES, Actor, AuditAction, BeliefStatus, Sensitivity
from memory.models import (
    AuditRecord,
    Belief,
    BeliefSource,
    DeletionFence,
    Event,
    FencedEvent,
    Session,
)
from memory.reach import FULL_REACH, Reach
from memory.search import forget_erased
from memory.selectors.sessions import event_get, session_get

from .records import set_status
from .sessions import session_close


def belief_erase(belief: Belief, *, actor: str) -> Belief:
    """Turn a locked belief into a tombstone behind a deletion fence."""
    fence = DeletionFence.objects.create(
        owner_id=belief.owner_id, belief=belief, fingerprint=belief.fingerprint
    )
    sources = BeliefSource.objects.filter(belief=belief)
    FencedEvent.objects.bulk_create(
        FencedEvent(owner_id=belief.owner_id, fence=fence, event_id=event_id)
        for event_id in sources.values_list("event_id", flat=True)
    )
    sources.update(excerpt="")
    belief.statement = ""
    belief.subject = ""
    belief.fingerprint = ""
    belief.claim_key = ""
    belief.needs_review = False
    belief.deleted_at = timezone.now()
    return set_status(
        belief,
        BeliefStatus.DELETED,
        action=AuditAction.DELETED,
        actor=actor,
        extra_fields=[
            "statement",
            "subject",
            "fingerprint",
            "claim_key",
            "needs_review",
            "deleted_at",
        ],
    )


def _erase_dependents(principal: User, events: QuerySet[Event]) -> int:
    """Erase every belief that cites one of ``events``; return how many."""
    dependents = (
        Belief.objects.select_for_update()
        .filter(
            owner=principal,
            pk__in=BeliefSource.objects.filter(event__in=events).values("belief_id"),
        )
        .exclude(status=BeliefStatus.DELETED)
        .order_by("id")
    )
    count = 0
    for belief in dependents:
        belief_erase(belief, actor=Actor.PRINCIPAL)
        count += 1
    return count


def _redact(principal: User, events: QuerySet[Event]) -> int:
    messages_erased(owner_id=principal.pk, event_ids=list(events.values_list("pk", flat=True)))
    # The label was read from the text and goes with it: what is left says nothing.
    return events.update(
        text="", parts=[], redacted_at=timezone.now(), sensitivity=Sensitivity.NORMAL
    )


def event_erase(*, principal: User, event_id: object, reach: Reach = FULL_REACH) -> Event:
    """Erase one message: remove its text and erase the beliefs formed from it."""
    reach.check_write()
    with principal_transaction(principal):
        event = event_get(principal=principal, event_id=event_id, for_update=True, reach=reach)
        if event.event_type not in MESSAGE_EVENT_TYPES:
            raise validation_error("Only messages hold text to erase.", field="event_id")
        if event.redacted_at is not None:
            return event
        events = Event.objects.filter(pk=event.pk)
        beliefs_deleted = _erase_dependents(principal, events)
        _redact(principal, events)
        forget_erased()
        AuditRecord.objects.create(
            owner=principal,
            action=AuditAction.EVENT_ERASED,
            actor=Actor.PRINCIPAL,
            session_id=event.session_id,
            event=event,
            details={"beliefs_deleted": beliefs_deleted},
        )
        event.refresh_from_db()
        return event


def session_erase(*, principal: User, session_id: object, reach: Reach = FULL_REACH) -> Session:
    """Erase a whole conversation: every message's text and the beliefs formed from them.

    The session is closed and marked erased; its (now empty) log stays so that
    sequences, runs and audit keep their meaning.
    """
    reach.check_write()
    with principal_transaction(principal):
        session = session_get(
            principal=principal, session_id=session_id, for_update=True, reach=reach
        )
        if session.erased_at is not None:
            return session
        messages = Event.objects.filter(
            owner=principal,
            session=session,
            event_type__in=MESSAGE_EVENT_TYPES,
            redacted_at__isnull=True,
        )
        beliefs_deleted = _erase_dependents(principal, messages)
        events_redacted = _redact(principal, messages)
        forget_erased()
        session_close(principal=principal, session_id=session.public_id)
        session.refresh_from_db()
        session.erased_at = timezone.now()
        session.save(update_fields=["erased_at"])
        AuditRecord.objects.create(
            owner=principal,
            action=AuditAction.SESSION_ERASED,
            actor=Actor.PRINCIPAL,
            session=session,
            details={"events_redacted": events_redacted, "beliefs_deleted": beliefs_deleted},
        )
        return session
