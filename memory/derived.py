"""Memories derived by an app built on ``memory`` (reconsolidation), on memory's own surfaces.

``memory`` never imports that app. It registers one ``DerivedProvider`` here
from its ``AppConfig.ready``; the memory list (``include=derived``), the
export, the review queue and each memory's page ask it, and show nothing
derived while none is registered. Every function takes the principal and
reads only that principal's rows; what they return is plain data in the
shape of ``memory.api.serializers.DerivedOutput``.
"""

from dataclasses import dataclass

from core.errors import ReverieError, validation_error

# Memory's name for derived memories on its surfaces: what the memory list's ``include``
# names, and the recall source the app registers (``include=["derived"]`` there).
DERIVED = "derived"


@dataclass(frozen=True)
class DerivedProvider:
    # available() -> bool: whether the owner's view of derived memories is on. Off,
    # the surfaces below show nothing derived (the export still holds it all).
    available: object
    # page(principal, *, limit, offset) -> [dict]: derived memories, newest change first.
    page: object
    # export(principal) -> dict: everything the app holds for the owner.
    export: object
    # awaiting_review(principal, *, limit) -> ([dict], total): derived memories waiting for
    # the owner's decision, newest first, at most ``limit``, each with a "url" of its
    # review page; and how many wait in all.
    awaiting_review: object
    # about_memory(principal, belief) -> [dict]: derived memories that read ``belief``,
    # each with a "url" of its review page.
    about_memory: object


_provider = []


def register_derived_provider(provider):
    """Make ``provider`` the one that memory's surfaces ask (the last registered wins)."""
    _provider[:] = [provider]


def derived_provider(*, whatever_the_surface=False):
    """The registered provider, or None when there is none or, unless
    ``whatever_the_surface``, when its surface is off."""
    if not _provider:
        return None
    provider = _provider[0]
    if not whatever_the_surface and not provider.available():
        return None
    return provider


def derived_included(*, include, access):
    """The provider when ``include`` (the names a memory list asks to include, or None)
    names derived memories, otherwise None.

    Any other name is refused, and so is ``DERIVED`` while the surface is off (there is
    nothing to include then) or for an ``access`` that reaches only part of the memories:
    derived memories span them."""
    if not include:
        return None
    provider = derived_provider()
    allowed = [DERIVED] if provider is not None else []
    if provider is not None and DERIVED in include and not access.is_full:
        raise ReverieError(
            "forbidden",
            "This token reaches only part of the memories; derived memories, which span "
            "them, need a token with full access.",
            field="include",
        )
    if unknown := sorted(set(include) - set(allowed)):
        raise validation_error(
            f"Unknown include: {', '.join(unknown)}.", field="include", allowed=allowed
        )
    return provider
