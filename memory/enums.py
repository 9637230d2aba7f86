"""Closed vocabularies of the memory app.

Ordered enumerations list their members from least to most restrictive, so that
"the most restrictive of several values" is the one with the highest index.
"""

from collections.abc import Iterable

from django.db import models

# Scopes are shared with accounts' API tokens, so they are defined in core; memory names
# them here with its other vocabularies.
from core.scopes import SCOPE_PATTERN, SCOPE_PRINCIPAL, is_valid_scope  # noqa: F401


class EventType(models.TextChoices):
    USER_MESSAGE = "user.message.created"
    ASSISTANT_MESSAGE = "assistant.message.created"
    PARTICIPANT_MESSAGE = "participant.message.created"
    RUN_COMPLETED = "run.completed"
    RUN_FAILED = "run.failed"
    RUN_WAITING = "run.waiting"
    SESSION_CLOSED = "session.closed"
    FORMATION_REQUESTED = "memory.formation.requested"
    EXTRACTION_COMPLETED = "memory.extraction.completed"


MESSAGE_EVENT_TYPES = (
    EventType.USER_MESSAGE,
    EventType.ASSISTANT_MESSAGE,
    EventType.PARTICIPANT_MESSAGE,
)

MESSAGE_EVENT_TYPE_CHOICES = [(str(t), str(t)) for t in MESSAGE_EVENT_TYPES]

# Who may author which kind of event. The owner authors user messages; other
# people in the conversation author participant messages.
MESSAGE_AUTHOR_KIND: dict[str, str] = {
    EventType.USER_MESSAGE: "principal",
    EventType.ASSISTANT_MESSAGE: "assistant",
    EventType.PARTICIPANT_MESSAGE: "participant",
}


class AuthorKind(models.TextChoices):
    PRINCIPAL = "principal"
    ASSISTANT = "assistant"
    PARTICIPANT = "participant"
    SYSTEM = "system"


class PartType(models.TextChoices):
    TEXT = "text"
    CAPTION = "caption"


class RunStatus(models.TextChoices):
    RUNNING = "running"
    WAITING = "waiting"
    COMPLETED = "completed"
    FAILED = "failed"


RUN_TERMINAL_STATUSES = (RunStatus.COMPLETED, RunStatus.FAILED)


class BeliefType(models.TextChoices):
    OWNERSHIP = "ownership"
    PREFERENCE = "preference"
    ATTRIBUTE = "attribute"
    RELATIONSHIP = "relationship"
    DECISION = "decision"
    OUTCOME = "outcome"
    FACT = "fact"


class Polarity(models.TextChoices):
    POSITIVE = "positive"
    NEGATIVE = "negative"


class Authority(models.TextChoices):
    EXPLICIT = "explicit"
    INFERRED = "inferred"
    DERIVED = "derived"


class BeliefStatus(models.TextChoices):
    PROVISIONAL = "provisional"
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"
    REJECTED = "rejected"
    EXPIRED = "expired"
    DELETED = "deleted"


# What recall returns and what the owner can still act on.
LIVE_BELIEF_STATUSES = (BeliefStatus.ACTIVE, BeliefStatus.PROVISIONAL)
LIVE_BELIEF_STATUS_CHOICES = [(str(s), str(s)) for s in LIVE_BELIEF_STATUSES]


class Sensitivity(models.TextChoices):
    NORMAL = "normal"
    PERSONAL = "personal"
    SENSITIVE = "sensitive"


class Portability(models.TextChoices):
    PORTABLE = "portable"
    LOCAL = "local"


def most_restrictive(enum: type[models.TextChoices], values: Iterable[str]) -> str:
    """The most restrictive member of an ordered enumeration among ``values``."""
    order = list(enum.values)
    return max(values, key=order.index)


class PolicyVersion(models.TextChoices):
    FORMATION_1 = "formation@1"
    FORMATION_2 = "formation@2"
    FORMATION_3 = "formation@3"
    FORMATION_4 = "formation@4"


class AuditAction(models.TextChoices):
    REMEMBERED = "remembered"
    FORMED = "formed"
    REINFORCED = "reinforced"
    RETRACTED = "retracted"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    CORRECTED = "corrected"
    SUPERSEDED = "superseded"
    DELETED = "deleted"
    EXPIRED = "expired"
    # The classifier raised the memory's sensitivity after its rules changed.
    RECLASSIFIED = "reclassified"
    EVENT_ERASED = "event_erased"
    SESSION_ERASED = "session_erased"


class Actor(models.TextChoices):
    PRINCIPAL = "principal"
    SYSTEM = "system"
