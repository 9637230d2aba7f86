"""Content-free tables outside row-level security.

They hold principal ids, kinds, times and counts, never memory text, so that
maintenance and operators can see across principals without reading content.
"""

from django.conf import settings
from django.db import models


class MaintenanceDue(models.Model):
    """When a principal next has maintenance of a kind due (e.g. a belief expiry)."""

    class Kind(models.TextChoices):
        BELIEF_EXPIRY = "belief_expiry"
        IDEMPOTENCY_PURGE = "idempotency_purge"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    due_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "kind"], name="maintenance_due_unique"),
        ]
        indexes = [models.Index(fields=["kind", "due_at"])]


class LabelsClassified(models.Model):
    """Which sensitivity classifier (``memory.sensitivity.CLASSIFIER_VERSION``) last labelled
    every message and memory of a principal. A principal without one, or with an older
    one, is due to be labelled again (``memory.services.sensitivity_labels``)."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    classifier = models.CharField(max_length=16)
    classified_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "labels classified"


class BeliefStatusCount(models.Model):
    """How many beliefs a principal has in each status, kept by the belief services."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=12)
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "status"], name="belief_status_count_unique"),
        ]
        verbose_name = "memory overview"
        verbose_name_plural = "memory overview"


class SearchStatistics(models.Model):
    """How many searchable rows of a collection a principal has, and their total length.

    PostgreSQL's BM25 ranking (``memory.search.postgres``) divides by these;
    database triggers keep them in the transaction of every write, erasure
    included (``KeepSearchStatistics``). SQLite's FTS5 keeps its own and leaves
    this table empty.
    """

    class Collection(models.TextChoices):
        BELIEF = "belief"
        MESSAGE = "message"
        DERIVED = "derived"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    collection = models.CharField(max_length=12, choices=Collection.choices)
    documents = models.BigIntegerField(default=0)
    # The sum of the rows' lengths in tokens (``migration_operations.SEARCH_LENGTH``).
    length = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "collection"], name="search_statistics_unique"
            ),
        ]
        verbose_name_plural = "search statistics"
