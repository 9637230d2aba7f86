"""Formation's records: how far each session is consolidated, its retries and its audits.

The tables keep the names they had when formation lived in ``memory``.
"""

from django.db import models

from common.models import OwnedModel, new_public_id
from memory.enums import BeliefType, Polarity, PolicyVersion
from memory.models import Event, Session


class ConsolidationWatermark(OwnedModel):
    """The last event sequence of a session that formation has consolidated."""

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="watermark")
    sequence = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "memory_consolidationwatermark"


class FormationRetry(OwnedModel):
    """A session whose consolidation failed: when formation tries again, or that it gave up.

    Its messages stay pending meanwhile. Content-free (a count, times and an
    exception's class name), so discovery and operators may read it. A
    consolidation that commits removes the row; so does the owner's retry.
    """

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, related_name="formation_retry"
    )
    attempts = models.PositiveIntegerField()
    next_attempt_at = models.DateTimeField()
    # Set after the last attempt failed: formation waits for the owner.
    gave_up_at = models.DateTimeField(null=True, blank=True)
    error_class = models.CharField(max_length=80, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "memory_formationretry"


class FormationAudit(OwnedModel):
    """One aggregate record per consolidation of a session prefix.

    Every returned proposal reaches exactly one terminal count; proposals past
    the service's consumption ceiling count as rejected (reason ``excess``).
    """

    class Outcome(models.TextChoices):
        COMMITTED = "committed"
        CONTENTION = "contention"
        NOOP = "noop"
        FAILED = "failed"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="formations")
    policy_version = models.CharField(max_length=20, choices=PolicyVersion.choices)
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    from_sequence = models.PositiveIntegerField()
    to_sequence = models.PositiveIntegerField()
    returned_count = models.PositiveIntegerField(default=0)
    consumed_count = models.PositiveIntegerField(default=0)
    committed_count = models.PositiveIntegerField(default=0)
    reinforced_count = models.PositiveIntegerField(default=0)
    superseded_count = models.PositiveIntegerField(default=0)
    rejected_count = models.PositiveIntegerField(default=0)
    # {"reason": count}; reasons are a closed set of codes, never text.
    rejection_reasons = models.JSONField(default=dict, blank=True)
    # For a failed consolidation: the exception's class name, never its message.
    error_class = models.CharField(max_length=80, blank=True, default="")
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memory_formationaudit"
        indexes = [models.Index(fields=["owner", "created_at"])]


class ExtractionAudit(OwnedModel):
    """Usage of one model-assisted extraction attempt. Stores no source text or output."""

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    formation = models.ForeignKey(
        FormationAudit,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="extractions",
    )
    provider = models.CharField(max_length=80)
    model = models.CharField(max_length=120, blank=True, default="")
    model_policy = models.CharField(max_length=80, blank=True, default="")
    # Normalised usage: input_bytes, input_tokens, output_tokens, cost_usd, duration_ms.
    usage = models.JSONField(default=dict, blank=True)
    returned_count = models.PositiveIntegerField(default=0)
    # Model proposals left out before the service decided, {"reason": count}:
    # cited messages that were not sent, ungrounded, duplicates. Codes only.
    dropped = models.JSONField(default=dict, blank=True)
    fallback = models.BooleanField(default=False)
    error_class = models.CharField(max_length=80, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memory_extractionaudit"


class Challenge(OwnedModel):
    """A proposal that would overrule a memory only the owner may overrule, kept for them.

    Formation never lets what it inferred retract, supersede or correct an
    explicit memory, nor lets a model's proposal replace a memory that more
    messages support than it cites. Such a proposal waits here instead ("this
    may have changed"), beside the standing memory, until the owner keeps the
    memory or replaces it with the proposal. It is not a memory: recall never
    returns it, and the standing memory stays in recall meanwhile.
    """

    class State(models.TextChoices):
        OPEN = "open"
        KEPT = "kept"
        REPLACED = "replaced"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    standing = models.ForeignKey(
        "memory.Belief", on_delete=models.CASCADE, related_name="challenges"
    )
    type = models.CharField(max_length=20, choices=BeliefType.choices)
    subject = models.CharField(max_length=200)
    statement = models.TextField()
    polarity = models.CharField(max_length=10, choices=Polarity.choices)
    # The proposal's claim fingerprint: with its sources, what keeps a kept challenge closed.
    fingerprint = models.CharField(max_length=64)
    model_proposed = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    # The owner's memory made of the proposal, once they chose to replace.
    replacement = models.ForeignKey(
        "memory.Belief",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    formation = models.ForeignKey(
        FormationAudit, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    events: "models.ManyToManyField[Event, ChallengeSource]" = models.ManyToManyField(
        "memory.Event", through="ChallengeSource", related_name="challenges"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "memory_challenge"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state__in=["open", "kept", "replaced"]),
                name="challenge_state_closed",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "state", "created_at"]),
            models.Index(fields=["owner", "fingerprint"]),
        ]

    def __str__(self) -> str:
        return f"challenge {self.public_id} ({self.state})"


class ChallengeSource(OwnedModel):
    """A message a challenge's proposal was read from."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="sources")
    event = models.ForeignKey("memory.Event", on_delete=models.CASCADE, related_name="+")

    class Meta:
        db_table = "memory_challengesource"
        constraints = [
            models.UniqueConstraint(fields=["challenge", "event"], name="challenge_source_unique"),
        ]
