import uuid

from django.conf import settings
from django.db import models


class OwnedModel(models.Model):
    """A row that belongs to one principal.

    Every concrete subclass's table is under FORCE row-level security on
    PostgreSQL (see ``common.migration_operations.EnableOwnerRowSecurity``);
    a test fails if one is not.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        abstract = True


def new_public_id() -> uuid.UUID:
    return uuid.uuid4()


# Content-free tables outside row-level security: keys, times and who set them.


class Flag(models.Model):
    """An operator's setting of a feature flag or kill switch (see ``common.flags``)."""

    key = models.CharField(max_length=60, unique=True)
    enabled = models.BooleanField()
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        # The name it had when flags lived in ``memory``.
        db_table = "memory_flag"

    def __str__(self) -> str:
        return self.key


class Heartbeat(models.Model):
    """When a background process last showed it was alive (content-free)."""

    name = models.CharField(max_length=60, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        # The name it had when health lived in ``memory``.
        db_table = "memory_heartbeat"

    def __str__(self) -> str:
        return self.name
