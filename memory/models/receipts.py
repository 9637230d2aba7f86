from django.db import models

from .base import OwnedModel


class IdempotencyRecord(OwnedModel):
    """The response to a write made under an ``Idempotency-Key``, for replays.

    Keys are scoped to the owner and last a day (``IDEMPOTENCY_KEY_LIFETIME``).
    The stored body may hold memory text, so the table is under row-level
    security like every other owner-bearing table.
    """

    key = models.CharField(max_length=200)
    # sha256 of the method, path and body: the same key with another request
    # is a conflict, not a replay.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_unique"),
        ]
        indexes = [models.Index(fields=["owner", "created_at"])]


class Heartbeat(models.Model):
    """When a background process last showed it was alive (content-free)."""

    name = models.CharField(max_length=60, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self):
        return self.name
