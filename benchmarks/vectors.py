"""Vectors for the benchmarks' banks of synthetic memories, without embedding each one.

A bank of 100,000 memories per principal would take the local model hours to embed. What
recall by meaning costs depends on how many vectors it reads and scores and how many rows
clear the floor, not on what each vector holds; so each memory gets a copy of one of a few
hundred real embeddings of the corpus's statements, moved a little at random. The copies
keep the model's spread of cosines, so about as many memories clear the floor as real
ones would. Deterministic for a seed.
"""

import numpy as np
from django.utils import timezone

from accounts.models import User
from benchmarks.corpus import Corpus
from common.principal import principal_context
from memory.embeddings import Embedder, Vectors
from memory.embeddings.codec import vector_bytes
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief, MemoryVector, VectorState
from memory.services.vectors import embedders_signature

POOL = 256
BATCH = 5000
# The spread added to each copy, per component of a unit vector of 384: the copies of one
# embedding meet at a cosine of about 0.95.
NOISE = 0.012


def vector_pool(embedder: Embedder, corpus: Corpus, *, size: int = POOL) -> Vectors:
    """``size`` real embeddings of the corpus's statements."""
    statements = [row["statement"] for row in corpus.beliefs(0, 0, size) if row["statement"]]
    return embedder.passages(statements)


def vectors_seed(
    principal: User, *, embedder: Embedder, pool: Vectors, seed: int, batch: int = BATCH
) -> int:
    """Give each live memory of ``principal`` without a vector of ``embedder`` a copy of a
    pool vector, and record the principal as embedded; return how many were stored."""
    rng = np.random.default_rng([seed, principal.pk])
    stored = 0
    with principal_context(principal):
        have = set(
            MemoryVector.objects.filter(
                owner=principal, collection="belief", embedder=embedder.key
            ).values_list("row_id", flat=True)
        )
        missing = [
            pk
            for pk in Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
            .order_by("pk")
            .values_list("pk", flat=True)
            if pk not in have
        ]
        for start in range(0, len(missing), batch):
            ids = missing[start : start + batch]
            picked = pool[rng.integers(0, len(pool), size=len(ids))]
            moved = picked + rng.normal(0.0, NOISE, size=picked.shape).astype(np.float32)
            moved /= np.linalg.norm(moved, axis=1, keepdims=True)
            MemoryVector.objects.bulk_create(
                [
                    MemoryVector(
                        owner=principal,
                        collection="belief",
                        row_id=pk,
                        embedder=embedder.key,
                        vector=vector_bytes(vector),
                    )
                    for pk, vector in zip(ids, moved, strict=True)
                ],
                batch_size=batch,
            )
            stored += len(ids)
    VectorState.objects.update_or_create(
        owner=principal,
        defaults={
            "embedder": embedders_signature([embedder]),
            "embedded_at": timezone.now(),
            "due_at": None,
        },
    )
    return stored
