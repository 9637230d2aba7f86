"""Embedders: text into vectors, so that recall finds memories by meaning as well as by words.

An embedder is a port (``Embedder``). The local default runs the bundled model in the
service's own processes (``memory.embeddings.local``); an app may register another kind
(``embedder_register``: providers adds an OpenAI-compatible server); tests use a
deterministic fake. ``REVERIE_EMBEDDINGS`` chooses: ``local`` (the default), ``remote`` or
``off``, which leaves recall to words alone.

Each embedder names its vector space by its ``key``: a vector is stored with the key of
the embedder that made it, and only vectors of one key are ever compared with a query
embedded by the same embedder.
"""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from accounts.models import User

Vectors = npt.NDArray[np.float32]

MODES = ("local", "remote", "off")


class EmbeddingFailed(Exception):
    """An embedder could not embed the texts it was given (a server down, a bad answer):
    recall goes on by words, and the memories wait for their vectors."""

    error_class = "failed"


@dataclass(frozen=True)
class TextLabels:
    """What the egress rules read of a text to embed: a memory's labels, or a query's (its
    sensitivity as classified, and the scope it is asked in)."""

    sensitivity: str
    portability: str
    scope: str


class Embedder(Protocol):
    """Texts into unit vectors of one space.

    ``queries`` embeds what is asked, ``passages`` what is remembered: models trained on
    pairs embed them differently. Both return one row per text, each of length 1, so a
    dot product is their cosine; ``principal`` is whose texts they are (a remote embedder
    records and charges each call to them).
    """

    # The vector space: the model and how it is run. Vectors of two keys are never compared.
    key: str
    dimensions: int
    # A memory found by meaning alone is given only at this cosine or above: below it, a
    # question whose answer is not there would still be answered with the nearest memory.
    floor: float
    # Whether texts leave the machine (then the egress rules choose what it may embed).
    remote: bool

    def admitted(self, principal: "User", labels: Sequence[TextLabels]) -> list[bool]:
        """For each text of ``principal`` with these labels, whether this embedder may
        embed it."""
        ...

    def queries(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors: ...

    def passages(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors: ...


# Other kinds of embedder, by mode, registered from an app's ``ready``: each factory
# returns the embedder for what the settings configure, or None when they configure none.
_factories: dict[str, Callable[[], Embedder | None]] = {}
_lock = threading.Lock()
_built: dict[tuple[str, str], Embedder | None] = {}


def embedder_register(mode: str, factory: Callable[[], Embedder | None]) -> None:
    """Make ``factory`` the embedder of ``REVERIE_EMBEDDINGS = mode``."""
    _factories[mode] = factory


def embeddings_mode() -> str:
    mode: str = settings.REVERIE_EMBEDDINGS["mode"]
    if mode not in MODES:
        raise ImproperlyConfigured(f"REVERIE_EMBEDDINGS must be one of {', '.join(MODES)}.")
    return mode


def local_embedder() -> Embedder | None:
    """The embedder that runs in this process, or None with embeddings off."""
    if embeddings_mode() == "off":
        return None
    return _built_once("local", settings.REVERIE_EMBEDDINGS["local"])


def remote_embedder() -> Embedder | None:
    """The embedder of a server that texts are sent to, when one is configured and chosen."""
    if embeddings_mode() != "remote" or "remote" not in _factories:
        return None
    factory = _factories["remote"]
    return factory()


def embedders() -> list[Embedder]:
    """Every embedder in use, the one that items are sent to first: a remote embedder
    embeds what may leave, the local one the rest (``memory.services.vectors``)."""
    found = [remote_embedder(), local_embedder()]
    return [embedder for embedder in found if embedder is not None]


def _built_once(mode: str, path: str) -> Embedder | None:
    # Built on first use, in the process that uses it: after gunicorn and the q2 cluster
    # have forked, never before (a model's threads do not survive a fork).
    key = (mode, path)
    if key not in _built:
        with _lock:
            if key not in _built:
                _built[key] = import_string(path)()
    return _built[key]


def embedders_reset() -> None:
    """Forget the embedders built so far: the next use builds them from the settings."""
    with _lock:
        _built.clear()
