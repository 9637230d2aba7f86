"""Memories derived by an app built on ``memory`` (reconsolidation), on memory's own surfaces.

``memory`` never imports that app. It registers one ``DerivedSurface`` here
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
class DerivedSurface:
    """An app's derived memories as memory's surfaces show them: each surface calls one
    of these functions, and none while ``available()`` says the app's view is off."""

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
    # awaiting_review_url() -> str: the page listing every derived memory waiting for the
    # owner's decision, for the queue's link to those it does not show.
    awaiting_review_url: object
    # about_memory(principal, belief) -> [dict]: derived memories that read ``belief``,
    # each with a "url" of its review page.
    about_memory: object
    # in_recall() -> bool: whether assistants receive derived memories now. Off (the
    # capability, its certificate or the kill switch), the owner is told so and is not
    # asked to review what no assistant reads.
    in_recall: object


_surface: list[DerivedSurface] = []


def register_derived_surface(surface):
    """Make ``surface`` the one that memory's surfaces ask (the last registered wins)."""
    _surface[:] = [surface]


def derived_surface(*, whatever_the_surface=False):
    """The registered surface, or None when there is none or, unless
    ``whatever_the_surface``, when it is off."""
    if not _surface:
        return None
    surface = _surface[0]
    if not whatever_the_surface and not surface.available():
        return None
    return surface


def derived_included(*, include, reach):
    """The surface when ``include`` (the names a memory list asks to include, or None)
    names derived memories, otherwise None.

    Any other name is refused, and so is ``DERIVED`` while the surface is off (there is
    nothing to include then) or for a ``reach`` over only part of the memories:
    derived memories span them."""
    if not include:
        return None
    surface = derived_surface()
    allowed = [DERIVED] if surface is not None else []
    if surface is not None and DERIVED in include and not reach.is_full:
        raise ReverieError(
            "forbidden",
            "This token reaches only part of the memories; derived memories, which span "
            "them, need a token that reaches all of them.",
            field="include",
        )
    if unknown := sorted(set(include) - set(allowed)):
        raise validation_error(
            f"Unknown include: {', '.join(unknown)}.", field="include", allowed=allowed
        )
    return surface
