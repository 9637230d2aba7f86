"""Reconsolidation's records: operations, derived memories, their lineage, receipts, leases,
cursors and budget reservations.

Operations, derived memories, summary claims, lineage, suppressions and
receipts hold memory content or lineage: they are owner-bearing (FORCE
row-level security on PostgreSQL). Leases, cursors and budget reservations
hold only ids, times and figures, so that fair scheduling and shared budgets
can read them across principals.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from common.models import OwnedModel, new_public_id
from memory.enums import SCOPE_PRINCIPAL, Authority, Polarity, Portability, Sensitivity
from memory.models import Belief


class Operation(OwnedModel):
    """One thing a pass did, with the exact source revisions it read."""

    class Kind(models.TextChoices):
        MERGE = "merge"
        SUMMARY = "summary"
        HYPOTHESIS = "hypothesis"
        UNCERTAINTY_NOTICE = "uncertainty_notice"

    class State(models.TextChoices):
        PLANNED = "planned"
        APPLIED = "applied"
        INVALIDATED = "invalidated"
        UNDONE = "undone"
        FAILED = "failed"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    state = models.CharField(max_length=20, choices=State.choices)
    policy_version = models.CharField(max_length=40)
    # [{"belief": public id, "revision": n}, ...]: what the operation read.
    inputs = models.JSONField()
    # Why the operation stopped holding: "source_changed", "regrouped", "owner_rejected", ...
    invalidation_reason = models.CharField(max_length=40, blank=True)
    # The verification call that agreed with a model-assisted operation; none for the
    # deterministic planners' own.
    provider_call = models.ForeignKey(
        "ProviderCall", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "state", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id} ({self.state})"


class DerivedMemory(OwnedModel):
    """A view computed from original beliefs; never evidence, never an original."""

    class Kind(models.TextChoices):
        MERGED = "merged"
        SUMMARY = "summary"
        HYPOTHESIS = "hypothesis"
        UNCERTAINTY_NOTICE = "uncertainty_notice"

    class Status(models.TextChoices):
        ACTIVE = "active"
        INVALIDATED = "invalidated"
        UNDONE = "undone"
        EXPIRED = "expired"
        PROMOTED = "promoted"
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
    # Hypotheses only: the end of their finite, evidence-based lifetime.
    expires_at = models.DateTimeField(null=True, blank=True)
    review_state = models.CharField(
        max_length=20, choices=Review.choices, default=Review.UNREVIEWED
    )
    restricted = models.BooleanField(default=False)
    # Namespaced hash of what the derived memory claims (``planning.suppression_fingerprint``).
    fingerprint = models.CharField(max_length=64, blank=True)
    # Proposed by a model and verified: recalled only while reconsolidation_provider is on.
    assisted = models.BooleanField(default=False)
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

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id} ({self.status})"


class Lineage(OwnedModel):
    """A derived memory depends on this revision of an original belief.

    A summary also depends on the inputs it read but left out (``omitted``), so
    that it can say what it does not cover and is invalidated when they change.
    """

    class Role(models.TextChoices):
        SOURCE = "source"
        OMITTED = "omitted"

    derived = models.ForeignKey(DerivedMemory, on_delete=models.CASCADE, related_name="lineage")
    belief = models.ForeignKey(Belief, on_delete=models.CASCADE, related_name="+")
    belief_revision = models.PositiveIntegerField()
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.SOURCE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["derived", "belief"], name="lineage_unique")]
        indexes = [models.Index(fields=["owner", "belief"])]


class SummaryClaim(OwnedModel):
    """One claim of a summary, in order, attributed to the originals that state it."""

    derived = models.ForeignKey(DerivedMemory, on_delete=models.CASCADE, related_name="claims")
    position = models.PositiveSmallIntegerField()
    # A copy of source text: erased with the source it came from.
    statement = models.TextField(blank=True)
    polarity = models.CharField(max_length=10, choices=Polarity.choices)
    # True while any supporting original is only provisional, or the claim is
    # contradicted inside the summary: uncertainty is never compressed away.
    uncertain = models.BooleanField(default=False)
    # Namespaced hash of the claim, without its text (``planning.claim_fingerprint``).
    fingerprint = models.CharField(max_length=64)
    supports: "models.ManyToManyField[Belief, ClaimSupport]" = models.ManyToManyField(
        Belief, through="ClaimSupport", related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["derived", "position"], name="summary_claim_position")
        ]


class ClaimSupport(OwnedModel):
    """This revision of an original belief states the summary claim."""

    claim = models.ForeignKey(SummaryClaim, on_delete=models.CASCADE, related_name="support")
    belief = models.ForeignKey(Belief, on_delete=models.CASCADE, related_name="+")
    belief_revision = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "belief"], name="claim_support_unique")
        ]
        indexes = [models.Index(fields=["owner", "belief"])]


class Receipt(OwnedModel):
    """What an owner action did (an undo of an operation, a control of a derived memory), for
    the owner's history and for replays under its ``Idempotency-Key``. Ids, statuses and
    revisions only, no memory text."""

    key = models.CharField(max_length=200)
    operation = models.ForeignKey(Operation, on_delete=models.CASCADE, related_name="receipts")
    # The derived memory a control acted on; none for an undo, which acts on the operation.
    derived = models.ForeignKey(
        DerivedMemory, null=True, blank=True, on_delete=models.CASCADE, related_name="receipts"
    )
    action = models.CharField(max_length=20)
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Not a column: set by ``receipted`` on the receipt it returns, True for an earlier one.
    replayed: bool

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="receipt_key_unique")]


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


class BudgetReservation(models.Model):
    """Work reserved before a pass over one principal's bank, settled after. Content-free.

    Until settled, the whole reservation counts against the shared budget: a
    pass that died without reporting its usage keeps what it reserved.
    """

    class State(models.TextChoices):
        RESERVED = "reserved"
        SETTLED = "settled"

    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    units = models.PositiveIntegerField()
    used = models.PositiveIntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.RESERVED)
    created_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["created_at"]),
            models.Index(fields=["principal", "created_at"]),
        ]


class ProviderCall(models.Model):
    """One request of model-assisted reconsolidation: its reservation, its send and its
    settlement, with the stage decisions made around it. Content-free: digests, lengths,
    figures and closed codes, so that recovery and the operator's spend view can read it
    across principals; deleted with the principal.

    ``state`` is the transport's story (reserved, sent, settled, uncertain, failed,
    cancelled, abandoned); ``validation`` is what local checks made of the reply. Until
    a call is settled with known usage its whole reservation stays charged.
    """

    class Stage(models.TextChoices):
        PROPOSAL = "proposal"
        VERIFICATION = "verification"
        TOPIC_PROPOSAL = "topic_proposal"
        TOPIC_VERIFICATION = "topic_verification"

    class State(models.TextChoices):
        RESERVED = "reserved"
        SENT = "sent"
        # Usage known and charged.
        SETTLED = "settled"
        # Sent, but what it cost is unknown (timeout, unreadable reply, no usage):
        # the full reservation stays charged.
        UNCERTAIN = "uncertain"
        # The provider refused or was unavailable: nothing generated, nothing charged.
        FAILED = "failed"
        # Never sent (deadline, lease lost, capability revoked); the reservation stays.
        CANCELLED = "cancelled"
        # Found reserved or sent after its worker died; the reservation stays.
        ABANDONED = "abandoned"

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    stage = models.CharField(max_length=20, choices=Stage.choices)
    state = models.CharField(max_length=20, choices=State.choices, default=State.RESERVED)
    # "" until the reply is checked; then "accepted" or a closed reason code.
    validation = models.CharField(max_length=40, blank=True)
    error_class = models.CharField(max_length=40, blank=True)
    # What the request was bound to: server and model, the policy it was prepared
    # under, and (a verification) the proposal it verifies.
    binding = models.CharField(max_length=300)
    policy_version = models.CharField(max_length=60)
    request_digest = models.CharField(max_length=64)
    request_length = models.PositiveIntegerField()
    proposal_digest = models.CharField(max_length=64, blank=True)
    answered_model = models.CharField(max_length=120, blank=True)
    # The spend ledger's day and whether the principal's own cap carries it (an
    # evaluation run's calls count against the global cap only).
    day = models.DateField()
    principal_charged = models.BooleanField(default=True)
    reserved_micros = models.BigIntegerField()
    charged_micros = models.BigIntegerField(null=True, blank=True)
    input_tokens = models.PositiveIntegerField(null=True, blank=True)
    output_tokens = models.PositiveIntegerField(null=True, blank=True)
    # At most this many sends under this reservation: a retry never spends unreserved.
    send_cap = models.PositiveSmallIntegerField(default=1)
    sends = models.PositiveSmallIntegerField(default=0)
    # Counts by closed reason of what the stage offered, excluded, proposed, dropped,
    # verified and applied; written once, when the call is settled.
    decisions = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["state", "created_at"]),
            models.Index(fields=["principal", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(sends__lte=models.F("send_cap")), name="provider_call_send_cap"
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage} call {self.public_id} ({self.state})"
