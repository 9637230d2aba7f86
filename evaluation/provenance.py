"""What a result or certificate is bound to: policy versions and digests of code and data."""

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.conf import settings

from formation.candidates import POLICY_PROVIDER_ASSISTED
from formation.services import configured_extractor
from reconsolidation.assisted.preparation import POLICY_VERSION as ASSISTED_POLICY
from reconsolidation.planning import POLICY_VERSION as RECONSOLIDATION_POLICY

from .code_closure import closure_files

# Where the code that decides what an evaluated capability does starts, by part:
# the digest covers these modules, the modules the project's apps wire in when
# they start, and every project module either imports (``evaluation.code_closure``),
# so a change anywhere in that code invalidates
# the certificates issued before it. Modules loaded by name from settings (the
# configured extractor, the local embedder that every memory written is embedded by)
# are entries of their own.
_EMBEDDER = settings.REVERIE_EMBEDDINGS["local"].rsplit(".", 1)[0]
POLICY_ENTRIES = {
    "formation": ("formation.services", "formation.extractor", _EMBEDDER),
    "formation_provider": (
        "formation.services",
        "formation.extractor",
        "formation.hybrid",
        _EMBEDDER,
    ),
    # Recall, and the derived memories the hybrid arm recalls through reconsolidation.
    "recall": ("memory.selectors.recall", "reconsolidation.selectors.recall", _EMBEDDER),
    "reconsolidation": (
        "reconsolidation.services.passes",
        "reconsolidation.services.operations",
        "reconsolidation.selectors.recall",
        "memory.selectors.recall",
        _EMBEDDER,
    ),
    "reconsolidation_provider": (
        "reconsolidation.services.passes",
        "reconsolidation.services.operations",
        "reconsolidation.assisted.execution",
        "reconsolidation.selectors.recall",
        "memory.selectors.recall",
        _EMBEDDER,
    ),
}


def code_files(parts: Iterable[str] = tuple(POLICY_ENTRIES)) -> list[str]:
    """The files the named parts' digest covers, relative to the project, sorted."""
    return sorted(set().union(*(closure_files(POLICY_ENTRIES[part]) for part in parts)))


def code_digest(parts: Iterable[str] = tuple(POLICY_ENTRIES)) -> str:
    """SHA-256 over the named parts' code: each file's path and contents, in a fixed order.

    Read once per process: the code a process runs does not change while it runs (a deploy,
    or the development server's reload, starts a new one), and flags ask for it inside
    requests, where reading and hashing a couple of hundred files has no place.
    """
    return _code_digest(tuple(parts))


@cache
def _code_digest(parts: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for relative in code_files(parts):
        digest.update(relative.encode() + b"\0")
        digest.update((base / relative).read_bytes() + b"\0")
    return digest.hexdigest()


def code_digests_read() -> None:
    """Read every part's digest now: a serving process calls this as it starts, before its
    first request."""
    for part in POLICY_ENTRIES:
        code_digest([part])


def code_digests_forget() -> None:
    """Forget the digests read so far, for a test that changes what a file holds."""
    _code_digest.cache_clear()


def policy_versions() -> dict[str, str]:
    return {
        # Not ``formation_extractor()``: that asks whether formation_provider is
        # certified, which asks for these versions.
        "formation": configured_extractor().policy_version,
        "formation_provider": POLICY_PROVIDER_ASSISTED,
        "reconsolidation": RECONSOLIDATION_POLICY,
        "reconsolidation_provider": ASSISTED_POLICY,
    }
