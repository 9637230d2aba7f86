from django.conf import settings
from django.db import models
from django.db.models import Q


class ProviderSpend(models.Model):
    """What provider calls of one day have committed: one principal's, or everyone's.

    The row without a principal is the global day. Committed spend is what calls
    in flight reserved plus what finished calls settled, in millionths of a US
    dollar. Content-free: amounts and counts, so it is not under row security;
    the ledger (``providers.ledger``) is its only writer.
    """

    day = models.DateField()
    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    committed_micros = models.BigIntegerField(default=0)
    calls = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The name it had when providers lived in ``memory``.
        db_table = "memory_providerspend"
        constraints = [
            models.UniqueConstraint(
                fields=["day", "principal"],
                condition=Q(principal__isnull=False),
                name="provider_spend_one_row_per_principal_day",
            ),
            models.UniqueConstraint(
                fields=["day"],
                condition=Q(principal__isnull=True),
                name="provider_spend_one_global_row_per_day",
            ),
        ]


class ProviderPause(models.Model):
    """Until when a provider's server asked not to be called (its Retry-After).

    One row per server, named by the SHA-256 of its base URL; content-free, so
    not under row security. ``providers.pauses`` is its only writer.
    """

    server = models.CharField(max_length=64, unique=True)
    not_before = models.DateTimeField()
    updated_at = models.DateTimeField(auto_now=True)


class EmbeddingCall(models.Model):
    """One call to a remote embedder (``providers.embeddings``): whose texts, how many, what
    it cost and how it ended. Content-free (counts, sizes, amounts, a closed error code,
    never a text or a vector), so it is not under row security, like the ledger."""

    class Purpose(models.TextChoices):
        QUERY = "query"
        PASSAGES = "passages"

    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    texts = models.PositiveIntegerField()
    request_bytes = models.PositiveIntegerField()
    # As the server reported them; None when it reported none (or none to believe).
    input_tokens = models.PositiveIntegerField(null=True, blank=True)
    # What the ledger holds for the call, in millionths of a US dollar.
    charged_micros = models.BigIntegerField(default=0)
    # "" for a call that answered; else a closed code (timeout, refused, spend_cap...).
    error_class = models.CharField(max_length=40, blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["created_at"])]
