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
