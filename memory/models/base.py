import uuid

from django.conf import settings
from django.db import models


class OwnedModel(models.Model):
    """A row that belongs to one principal.

    Every concrete subclass's table is under FORCE row-level security on
    PostgreSQL (see ``memory.migration_operations.EnableOwnerRowSecurity``);
    a test fails if one is not.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        abstract = True


def new_public_id():
    return uuid.uuid4()
