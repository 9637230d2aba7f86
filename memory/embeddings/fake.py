"""A deterministic embedder for tests: no model, the same vector for the same words.

Each content word is stemmed and mapped to a concept by a small table of meanings
(``MEANINGS``: "pets" and "dog" are both an animal, "partner" and "wife" a spouse), and
each concept to a fixed random direction; a text is the normalised sum of its concepts'.
So "Do I have any pets?" meets "User has a dog named Pepper." with no word in common,
as a real model would let it, and texts about nothing in common are nearly orthogonal.
"""

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from memory.stemming import stem
from memory.text import content_words

from . import TextLabels, Vectors

if TYPE_CHECKING:
    from accounts.models import User

# Stems that mean one thing, by the concept they stand for.
MEANINGS = {
    "animal": ("pet", "dog", "cat", "puppi", "kitten", "parrot", "tortois", "anim"),
    "spouse": ("partner", "wife", "husband", "spous", "girlfriend", "boyfriend", "marri"),
    "units": ("metric", "kilometr", "mile", "unit", "imperi", "celsiu", "fahrenheit"),
    "medicine": ("medicin", "penicillin", "drug", "antibiot", "allerg", "react"),
    "vehicle": ("car", "vehicl", "drive", "bike", "motorbik"),
    "work": ("job", "work", "profess", "occup", "career"),
    "home": ("home", "citi", "base", "town", "live"),
}
_CONCEPT = {member: concept for concept, members in MEANINGS.items() for member in members}
DIMENSIONS = 64


def _direction(concept: str) -> Vectors:
    seed = int.from_bytes(hashlib.sha256(concept.encode()).digest()[:8], "little")
    vector = np.random.default_rng(seed).standard_normal(DIMENSIONS).astype(np.float32)
    return vector / np.linalg.norm(vector)


class FakeEmbedder:
    key = "fake-meanings/1"
    dimensions = DIMENSIONS
    # Unrelated texts meet near 0 here, one shared concept of a few gives about 0.4.
    floor = 0.3
    remote = False

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def _embed(self, texts: Sequence[str]) -> Vectors:
        rows = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for at, text in enumerate(texts):
            for word in content_words(text):
                word_stem = stem(word)
                rows[at] += _direction(_CONCEPT.get(word_stem, word_stem))
            norm = np.linalg.norm(rows[at])
            if norm:
                rows[at] /= norm
        return rows

    def admitted(self, principal: "User", labels: Sequence[TextLabels]) -> list[bool]:
        return [True for _ in labels]

    def queries(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        self.calls.append(("queries", tuple(texts)))
        return self._embed(texts)

    def passages(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        self.calls.append(("passages", tuple(texts)))
        return self._embed(texts)
