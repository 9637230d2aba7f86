from django.conf import settings
from django.db import models

from common.models import OwnedModel


class MemoryVector(OwnedModel):
    """A memory's embedding, for recall by meaning (``memory.search.meaning``).

    Derived from the memory's text, so it is under row security like the text and is
    removed when the text is erased. ``collection`` and ``row_id`` name the memory: a belief,
    or a row of a table an app registered (``memory.services.vectors.vectors_register``).
    Only vectors of one ``embedder`` (an ``Embedder.key``) are compared with each other.
    """

    collection = models.CharField(max_length=12)
    row_id = models.BigIntegerField()
    embedder = models.CharField(max_length=120)
    # int8 components after a float32 scale (``memory.embeddings.vectors``).
    vector = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "collection", "embedder", "row_id"], name="memory_vector_unique"
            ),
        ]


class VectorState(models.Model):
    """Whether a principal's memories all have vectors of the current embedder.

    Content-free, outside row security, so that the maintenance sweep can find the
    principals with work to do: those whose memories the current embedder has not
    embedded (no row, or a row naming another embedder) and those with a memory written
    since (``due_at``).
    """

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # The embedder (its key) that had embedded every memory when ``embedded_at`` was.
    embedder = models.CharField(max_length=120, blank=True, default="")
    embedded_at = models.DateTimeField(null=True, blank=True)
    # When the first memory still waiting for its vector was written; None when none waits.
    due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["due_at"])]
