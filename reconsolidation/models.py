"""Reconsolidation's records: operations, derived memories, their lineage, leases and cursors.

Operations and derived memories hold memory content or lineage: they are
owner-bearing (FORCE row-level security on PostgreSQL). Leases and cursors hold
only ids and times, so that fair scheduling can read them across principals.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from memory.enums import SCOPE_PRINCIPAL, Authority, Polarity, Portability, Sensitivity
from memory.models import Belief
from memory.models.base import OwnedModel, new_public_id


class Operation(OwnedModel):
    """One thing a pass did, with the exact source revisions it read."""

    class Kind(models.TextChoices):
        MERGE = "merge"
        UNCERTAINTY_NOTICE = "uncertainty_notice"

    class State(models.TextChoices):
        APPLIED = "applied"
        INVALIDATED = "invalidated"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    state = models.CharField(max_length=20, choices=State.choices)
    policy_version = models.CharField(max_length=40)
    # [{"belief": public id, "revision": n}, ...]: what the operation read.
    inputs = models.JSONField()
    # Why the operation stopped holding: "source_changed", "regrouped".
    invalidation_reason = models.CharField(max_length=40, blank=True)
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "state", "kind"])]

    def __str__(self):
        return f"{self.kind} {self.public_id} ({self.state})"


class DerivedMemory(OwnedModel):
    """A view computed from original beliefs; never evidence, never an original."""

    class Kind(models.TextChoices):
        MERGED = "merged"
        UNCERTAINTY_NOTICE = "uncertainty_notice"

    class Status(models.TextChoices):
        ACTIVE = "active"
        INVALIDATED = "invalidated"
        REJECTED = "rejected"
        DELETED = "deleted"

    class Review(models.TextChoices):
        UNREVIEWED = "unreviewed"
        REVIEWED = "reviewed"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    operation = models.ForeignKey(Operation, on_delete=models.CASCADE, related_name="outputs")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    authority = models.CharField(max_length=10, default=Authority.DERIVED, editable=False)
    type = models.CharField(max_length=20)
    subject = models.CharField(max_length=200, blank=True)
    # A copy of source text: erased with the source it came from.
    statement = models.TextField(blank=True)
    polarity = models.CharField(max_length=10, choices=Polarity.choices)
    scope = models.CharField(max_length=80, default=SCOPE_PRINCIPAL)
    sensitivity = models.CharField(max_length=10, choices=Sensitivity.choices)
    portability = models.CharField(max_length=10, choices=Portability.choices)
    # No higher than the strongest source: a merge is not corroboration.
    confidence = models.FloatField()
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    # Copied from the sources, never the time of derivation.
    evidence_at = models.DateTimeField(null=True, blank=True)
    review_state = models.CharField(
        max_length=20, choices=Review.choices, default=Review.UNREVIEWED
    )
    restricted = models.BooleanField(default=False)
    # Namespaced hash of what the derived memory claims (``planning.suppression_fingerprint``).
    fingerprint = models.CharField(max_length=64, blank=True)
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "derived memories"
        constraints = [
            models.CheckConstraint(condition=Q(authority="derived"), name="derived_is_derived"),
            models.CheckConstraint(
                condition=Q(confidence__gte=0) & Q(confidence__lte=1),
                name="derived_confidence_unit_interval",
            ),
        ]
        indexes = [models.Index(fields=["owner", "status", "kind"])]

    def __str__(self):
        return f"{self.kind} {self.public_id} ({self.status})"


class Lineage(OwnedModel):
    """A derived memory depends on this revision of an original belief."""

    derived = models.ForeignKey(DerivedMemory, on_delete=models.CASCADE, related_name="lineage")
    belief = models.ForeignKey(Belief, on_delete=models.CASCADE, related_name="+")
    belief_revision = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["derived", "belief"], name="lineage_unique")]
        indexes = [models.Index(fields=["owner", "belief"])]


class Suppression(OwnedModel):
    """A derived claim the owner rejected or deleted: never derived again. A namespaced hash,
    no text."""

    fingerprint = models.CharField(max_length=64)
    reason = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "fingerprint"], name="suppression_unique")
        ]


class Lease(models.Model):
    """Who is running a pass over one principal's bank, until when. Content-free."""

    principal = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    holder = models.CharField(max_length=100)
    expires_at = models.DateTimeField()
    heartbeat_at = models.DateTimeField()


class Cursor(models.Model):
    """How far the passes over one principal's bank have read. Content-free."""

    principal = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # Changed-input cursor: beliefs changed after (changed_at, changed_id).
    changed_at = models.DateTimeField(null=True, blank=True)
    changed_id = models.BigIntegerField(default=0)
    # Full-scan cursor: the claim keys (hashes, not text) after this one.
    scanned_key = models.CharField(max_length=64, blank=True)
    full_scans = models.PositiveIntegerField(default=0)
    last_pass_at = models.DateTimeField(null=True, blank=True)
