from django.db import models
from django.db.models import Q

from common.models import OwnedModel, new_public_id
from memory.enums import (
    MESSAGE_EVENT_TYPES,
    SCOPE_PRINCIPAL,
    AuthorKind,
    EventType,
    RunStatus,
    Sensitivity,
)


class Session(OwnedModel):
    """One conversation. Its events form an append-only log."""

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    external_id = models.CharField(max_length=200, null=True, blank=True)
    scope = models.CharField(max_length=80, default=SCOPE_PRINCIPAL)
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    erased_at = models.DateTimeField(null=True, blank=True)
    # The highest sequence handed out; appends lock this row to take the next.
    last_sequence = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            # A conversation's id is the caller's, within one scope: assistants name
            # their conversations without learning whether another one uses the name.
            models.UniqueConstraint(
                fields=["owner", "scope", "external_id"],
                condition=Q(external_id__isnull=False),
                name="session_external_id_unique_per_scope",
            ),
        ]
        indexes = [models.Index(fields=["owner", "-last_activity_at"])]

    def __str__(self) -> str:
        return f"session {self.public_id}"


class Event(OwnedModel):
    """An entry in a session's log.

    The log is append-only; the one mutation it allows is erasure, which blanks
    the text of every part and sets ``redacted_at``.
    """

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    event_type = models.CharField(max_length=40, choices=EventType.choices)
    author_kind = models.CharField(max_length=20, choices=AuthorKind.choices)
    author_name = models.CharField(max_length=120, blank=True, default="")
    # [{"type": "text" | "caption", "text": "..."}]
    parts = models.JSONField(default=list, blank=True)
    # The parts' text joined, kept for full-text search of original messages.
    text = models.TextField(blank=True, default="")
    # Structured, content-free metadata of system events (run id, not_before...).
    payload = models.JSONField(default=dict, blank=True)
    # What the text is about, read from it when the message is appended (as a memory's
    # sensitivity is): a token kept from sensitive things never reads a sensitive
    # message. Unlike the words it may change while the message lives, when the
    # classifier does (``manage.py messages_classify``); an erased message has no text
    # and so is ordinary. Not indexed: reads filter on it only beside a narrower
    # condition (the session, the public id, the full-text match).
    sensitivity = models.CharField(
        max_length=10, choices=Sensitivity.choices, default=Sensitivity.NORMAL
    )
    external_id = models.CharField(max_length=200, null=True, blank=True)
    derivation_key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    occurred_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    redacted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "sequence"], name="event_sequence_unique_per_session"
            ),
            models.UniqueConstraint(
                fields=["session", "external_id"],
                condition=Q(external_id__isnull=False),
                name="event_external_id_unique_per_session",
            ),
            models.CheckConstraint(
                condition=Q(event_type__in=EventType.values), name="event_type_closed"
            ),
            models.CheckConstraint(
                condition=Q(sensitivity__in=Sensitivity.values), name="event_sensitivity_closed"
            ),
            # System events carry no text, so that maintenance discovery may
            # read formation flags across owners without reading content.
            models.CheckConstraint(
                condition=Q(event_type__in=[str(t) for t in MESSAGE_EVENT_TYPES]) | Q(text=""),
                name="system_event_has_no_text",
            ),
        ]
        indexes = [
            # Formation scans flag events by type, then session, then sequence.
            models.Index(
                fields=["event_type", "session", "sequence"], name="event_type_session_seq"
            ),
        ]
        ordering = ["session_id", "sequence"]

    def __str__(self) -> str:
        return f"{self.event_type} #{self.sequence}"


class Run(OwnedModel):
    """One assistant turn within a session."""

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="runs")
    status = models.CharField(max_length=20, choices=RunStatus.choices, default=RunStatus.RUNNING)
    error_code = models.CharField(max_length=80, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RunStatus.values), name="run_status_closed"
            ),
            # A run is finished exactly when it is terminal.
            models.CheckConstraint(
                condition=(
                    Q(status__in=["completed", "failed"], finished_at__isnull=False)
                    | Q(status__in=["running", "waiting"], finished_at__isnull=True)
                ),
                name="run_finished_iff_terminal",
            ),
        ]

    def __str__(self) -> str:
        return f"run {self.public_id} ({self.status})"
