from django.db import models

from common.models import OwnedModel


class IdempotencyRecord(OwnedModel):
    """A write made under an ``Idempotency-Key``: its status and what it wrote, for replays.

    Keys are scoped to the owner and last a day (``IDEMPOTENCY_KEY_LIFETIME``).
    The record holds no text, only the status and the public id of the resource
    the write answered with: a replay renders that resource as it is now, so an
    erasure after the write is never undone by replaying it. Still owner-bound
    and under row-level security: keys and ids say what the owner did.
    """

    key = models.CharField(max_length=200)
    # sha256 of the method, path and body: the same key with another request
    # is a conflict, not a replay.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    # Empty for writes that answer with a receipt (see reconsolidation.Receipt).
    resource_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_unique"),
        ]
        indexes = [models.Index(fields=["owner", "created_at"])]
