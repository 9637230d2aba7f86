"""Memories in the states the review site deals with, made through the services."""

from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from common.principal import principal_context
from formation.selectors import formation_failure
from formation.services import formation_sweep
from memory.enums import Actor, AuditAction, Authority, BeliefStatus, BeliefType
from memory.models import Belief
from memory.services.records import create_belief
from memory.services.sessions import session_close
from memory.text import topic_subject
from tests.formation.formation_helpers import ScriptedExtractor
from tests.memory.helpers import conversation


def formed(principal, statement, *, sources=(), status=BeliefStatus.PROVISIONAL, **fields):
    """Stand in for formation: an inferred memory it would propose, made directly."""
    with principal_context(principal), transaction.atomic():
        return create_belief(
            principal=principal,
            sources=sources,
            action=AuditAction.FORMED,
            actor=Actor.SYSTEM,
            type=fields.pop("type", BeliefType.FACT),
            subject=fields.pop("subject", None) or topic_subject(statement),
            statement=statement,
            authority=Authority.INFERRED,
            status=status,
            confidence=fields.pop("confidence", 0.6),
            **fields,
        )


def reload(principal, belief):
    with principal_context(principal):
        return Belief.objects.get(pk=belief.pk)


def owned(principal, model=Belief, **filters):
    """The principal's rows of ``model``, read as the principal (row-level security agrees)."""
    with principal_context(principal):
        return list(model.objects.filter(owner=principal, **filters).order_by("id"))


def change_elsewhere(principal, belief):
    """Stand in for a change made in another tab: the revision moves on, nothing else."""
    with principal_context(principal):
        Belief.objects.filter(pk=belief.pk).update(revision=belief.revision + 1)


def memory_url(belief, page="change"):
    return reverse(f"review:memory_belief_{page}", args=[belief.public_id])


def session_url(session):
    return reverse("review:memory_session_change", args=[session.public_id])


def page_messages(response):
    """The texts of the messages a (followed) response shows."""
    return [str(message) for message in response.context["messages"]]


def formation_given_up(principal, settings):
    """A closed conversation on which formation failed until it gave up."""
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 1}
    session, _ = conversation(principal, "I own a kindle.")
    session_close(principal=principal, session_id=session.public_id)

    def failing(request):
        raise RuntimeError

    (audit,) = formation_sweep(
        now=timezone.now() + timedelta(seconds=31), extractor=ScriptedExtractor(failing)
    )
    assert audit.outcome == "failed"
    assert waiting_retry(principal, session).gave_up_at is not None
    return session


def waiting_retry(principal, session):
    """The session's retry after a failed consolidation, read as its owner, or None."""
    with principal_context(principal):
        return formation_failure(principal=principal, session=session)


def retry_formation_url(session):
    return reverse("review:memory_session_retry_formation", args=[session.public_id])
