"""Who read the owner's memories: one content-free row per read made with an API token.

An owner who lets several assistants use one memory bank can see which of them read
what, and when. The rows name the token, the route (its name, never the path with its
query), the request id and the public ids of what the answer carried; never a query's
text and never any memory or message text.
"""

from django.conf import settings
from django.db import models

from common.models import OwnedModel, new_public_id

from .fields import PublicIdsField


class AccessRecord(OwnedModel):
    """One read through an API token, written in the request that answered it, with the
    public ids of the memories, messages and derived memories its answer carried.

    The ids are the record's own columns, not rows of their own: every token read writes
    one row and nothing else. An id outlives the item's erasure, and says only that
    something with this id was read.
    """

    # The (owner, created_at) and (token, created_at) indexes below serve every lookup by
    # owner or token: the foreign keys' own indexes would only be more to update on
    # every read.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    public_id = models.UUIDField(default=new_public_id, unique=True, editable=False)
    # Tokens are deleted only with their account, whose erasure deletes these rows
    # first; a token that went any other way takes its reads with it.
    token = models.ForeignKey(
        "accounts.ApiToken",
        on_delete=models.CASCADE,
        related_name="access_records",
        db_index=False,
    )
    # The route's name in the URL configuration ("api:recall"), never the path: a
    # path's query string could carry words of the caller's.
    route = models.CharField(max_length=60)
    request_id = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    # "Which tokens read this memory" looks the memory up in ``memory_ids``: on
    # PostgreSQL a GIN index answers it (``IndexIdsHeld``); the other two are only read
    # with their record.
    memory_ids = PublicIdsField()
    message_ids = PublicIdsField()
    derived_ids = PublicIdsField()

    class Meta:
        indexes = [
            models.Index(fields=["owner", "created_at"]),
            models.Index(fields=["token", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"access {self.public_id}"


class AccessRecordFailure(models.Model):
    """How many reads on a day answered without their access record, because writing it
    failed: for operators, content-free (no owner, no token, no ids)."""

    day = models.DateField(unique=True)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "access record failure"
