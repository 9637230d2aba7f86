"""Who read the owner's memories: one content-free row per read made with an API token.

An owner who lets several assistants use one memory bank can see which of them read
what, and when. The rows name the token, the route (its name, never the path with its
query), the request id and the public ids of what the answer carried; never a query's
text and never any memory or message text.
"""

from django.db import models

from .base import OwnedModel, new_public_id


class AccessRecord(OwnedModel):
    """One read through an API token, written in the request that answered it."""

    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    # Tokens are deleted only with their account, whose erasure deletes these rows
    # first; a token that went any other way takes its reads with it.
    token = models.ForeignKey(
        "accounts.ApiToken", on_delete=models.CASCADE, related_name="access_records"
    )
    # The route's name in the URL configuration ("api:recall"), never the path: a
    # path's query string could carry words of the caller's.
    route = models.CharField(max_length=60)
    request_id = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    memory_count = models.PositiveIntegerField(default=0)
    message_count = models.PositiveIntegerField(default=0)
    derived_count = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "created_at"]),
            models.Index(fields=["token", "created_at"]),
        ]

    def __str__(self):
        return f"access {self.public_id}"


class AccessedItem(OwnedModel):
    """One memory, message or derived memory an access record's answer carried."""

    class Kind(models.TextChoices):
        MEMORY = "memory"
        MESSAGE = "message"
        DERIVED = "derived"

    record = models.ForeignKey(AccessRecord, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The item's public id: the row survives the item's erasure, and says only that
    # something with this id was read.
    public_id = models.UUIDField()

    class Meta:
        indexes = [models.Index(fields=["owner", "kind", "public_id"])]


class AccessRecordFailure(models.Model):
    """How many reads on a day answered without their access record, because writing it
    failed: for operators, content-free (no owner, no token, no ids)."""

    day = models.DateField(unique=True)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "access record failure"
