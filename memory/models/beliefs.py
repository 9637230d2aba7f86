from django.db import models
from django.db.models import Q

from common.models import OwnedModel, new_public_id
from memory.enums import (
    SCOPE_PRINCIPAL,
    Actor,
    AuditAction,
    Authority,
    BeliefStatus,
    BeliefType,
    Polarity,
    Portability,
    Sensitivity,
)

from .sessions import Event, Session


class Belief(OwnedModel):
    """A durable memory about the owner.

    ``revision`` counts changes to this row and guards every owner write. A
    correction does not edit the row: it creates a new belief that
    ``supersedes`` this one.
    """

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    type = models.CharField(max_length=20, choices=BeliefType.choices)
    # The semantic conflict key, e.g. ``device:apple-watch`` or ``pref:units``.
    subject = models.CharField(max_length=200, blank=True)
    statement = models.TextField(blank=True)
    # sha256 of subject and normalised statement: equal claims share it.
    fingerprint = models.CharField(max_length=64, blank=True)
    polarity = models.CharField(max_length=10, choices=Polarity.choices, default=Polarity.POSITIVE)
    # sha256 of subject, type, polarity and the statement's words without
    # articles (``memory.text.claim_key``): equivalent claims share it.
    claim_key = models.CharField(max_length=64, blank=True)
    authority = models.CharField(max_length=10, choices=Authority.choices)
    status = models.CharField(max_length=12, choices=BeliefStatus.choices)
    needs_review = models.BooleanField(default=False)
    confidence = models.FloatField()
    scope = models.CharField(max_length=80, default=SCOPE_PRINCIPAL)
    portability = models.CharField(
        max_length=10, choices=Portability.choices, default=Portability.PORTABLE
    )
    sensitivity = models.CharField(
        max_length=10, choices=Sensitivity.choices, default=Sensitivity.NORMAL
    )
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # When the newest source evidence was observed; derivations copy it, never reset it.
    evidence_at = models.DateTimeField(null=True, blank=True)
    formation = models.ForeignKey(
        "formation.FormationAudit",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="beliefs",
    )
    # A language model proposed it (provider-assisted formation); the service decided.
    model_proposed = models.BooleanField(default=False)
    supersedes = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="superseded_by",
    )
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "memory"
        verbose_name_plural = "memories"
        constraints = [
            models.CheckConstraint(
                condition=Q(confidence__gte=0) & Q(confidence__lte=1),
                name="belief_confidence_unit_interval",
            ),
            models.CheckConstraint(condition=Q(revision__gte=1), name="belief_revision_positive"),
            models.CheckConstraint(
                condition=Q(status__in=BeliefStatus.values), name="belief_status_closed"
            ),
            models.CheckConstraint(
                condition=Q(sensitivity__in=Sensitivity.values),
                name="belief_sensitivity_closed",
            ),
            models.CheckConstraint(
                condition=Q(portability__in=Portability.values),
                name="belief_portability_closed",
            ),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True)
                | Q(valid_until__isnull=True)
                | Q(valid_until__gte=models.F("valid_from")),
                name="belief_validity_ordered",
            ),
            # A deleted belief is a tombstone: its text is gone.
            models.CheckConstraint(
                condition=~Q(status="deleted") | (Q(statement="") & Q(subject="")),
                name="belief_deleted_has_no_text",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "status", "type"]),
            # The subject's claim keys in order: reconsolidation asks whether a key is a
            # subject's smallest with one index probe.
            models.Index(fields=["owner", "subject", "claim_key"]),
            models.Index(fields=["owner", "fingerprint"]),
            models.Index(fields=["owner", "claim_key"]),
            models.Index(fields=["owner", "updated_at"]),
            models.Index(
                fields=["owner", "expires_at"],
                condition=Q(status__in=["active", "provisional"], expires_at__isnull=False),
                name="belief_live_expiry",
            ),
        ]

    def __str__(self) -> str:
        return f"belief {self.public_id} ({self.status})"


class BeliefSource(OwnedModel):
    """An event a belief was formed from, with the excerpt it relied on."""

    belief = models.ForeignKey(Belief, on_delete=models.CASCADE, related_name="sources")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="belief_sources")
    excerpt = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["belief", "event"], name="belief_source_unique"),
        ]


class DeletionFence(OwnedModel):
    """What stays of an erased belief: a fingerprint of its claim and its sources.

    Neither formation nor reconsolidation may re-create the fenced claim from the
    fenced events, and the fenced events drop out of original-message recall.
    """

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    belief = models.OneToOneField(
        Belief, null=True, blank=True, on_delete=models.CASCADE, related_name="fence"
    )
    fingerprint = models.CharField(max_length=64)
    events: "models.ManyToManyField[Event, FencedEvent]" = models.ManyToManyField(
        Event, through="FencedEvent", related_name="fences"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "fingerprint"])]


class FencedEvent(OwnedModel):
    fence = models.ForeignKey(DeletionFence, on_delete=models.CASCADE)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="fenced_by")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["fence", "event"], name="fenced_event_unique"),
        ]


class AuditRecord(OwnedModel):
    """One change made by a memory service, written in the same transaction.

    Content-free: it names what changed and how, never the text.
    """

    action = models.CharField(max_length=20, choices=AuditAction.choices)
    actor = models.CharField(max_length=10, choices=Actor.choices)
    belief = models.ForeignKey(
        Belief, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_records"
    )
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    revision = models.PositiveIntegerField(null=True, blank=True)
    from_status = models.CharField(max_length=12, blank=True, default="")
    to_status = models.CharField(max_length=12, blank=True, default="")
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "belief", "created_at"])]
        ordering = ["created_at", "id"]
