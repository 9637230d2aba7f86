"""Memories derived by an app built on ``memory`` (reconsolidation), on memory's own surfaces.

``memory`` never imports that app. It registers one ``DerivedSurface`` here
from its ``AppConfig.ready``; the memory list (``include=derived``), the
export, the review queue and each memory's page ask it, and show nothing
derived while none is registered. Every function takes the principal and
reads only that principal's rows; what they return is plain data in the
shape of ``memory.api.serializers.DerivedOutput``.
"""

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from core.errors import ReverieError, validation_error

if TYPE_CHECKING:
    from accounts.models import User
    from memory.models import Belief
    from memory.reach import Reach

# Memory's name for derived memories on its surfaces: what the memory list's ``include``
# names, and the recall source the app registers (``include=["derived"]`` there).
DERIVED = "derived"


# A derived memory as memory's surfaces show it: a dict in the shape of
# ``memory.api.serializers.DerivedOutput`` (with a "url" of its review page where a
# function below says so).
DerivedView = dict[str, Any]


class _Page(Protocol):
    def __call__(self, principal: "User", *, limit: int, offset: int) -> list[DerivedView]: ...


class _AwaitingReview(Protocol):
    def __call__(self, principal: "User", *, limit: int) -> tuple[list[DerivedView], int]: ...


@dataclass(frozen=True)
class DerivedSurface:
    """An app's derived memories as memory's surfaces show them: each surface calls one
    of these functions, and none while ``available()`` says the app's view is off."""

    # Whether the owner's view of derived memories is on. Off, the surfaces below show
    # nothing derived (the export still holds it all).
    available: Callable[[], bool]
    # page(principal, *, limit, offset): derived memories, newest change first.
    page: _Page
    # export(principal): everything the app holds for the owner.
    export: Callable[["User"], dict[str, Any]]
    # awaiting_review(principal, *, limit): derived memories waiting for the owner's
    # decision, newest first, at most ``limit``, each with a "url" of its review page;
    # and how many wait in all.
    awaiting_review: _AwaitingReview
    # The page listing every derived memory waiting for the owner's decision, for the
    # queue's link to those it does not show.
    awaiting_review_url: Callable[[], str]
    # about_memory(principal, belief): derived memories that read ``belief``, each with a
    # "url" of its review page.
    about_memory: Callable[["User", "Belief"], list[DerivedView]]
    # Whether assistants receive derived memories now. Off (the capability, its
    # certificate or the kill switch), the owner is told so and is not asked to review
    # what no assistant reads.
    in_recall: Callable[[], bool]


_surface: list[DerivedSurface] = []


def register_derived_surface(surface: DerivedSurface) -> None:
    """Make ``surface`` the one that memory's surfaces ask (the last registered wins)."""
    _surface[:] = [surface]


def derived_surface(*, whatever_the_surface: bool = False) -> DerivedSurface | None:
    """The registered surface, or None when there is none or, unless
    ``whatever_the_surface``, when it is off."""
    if not _surface:
        return None
    surface = _surface[0]
    if not whatever_the_surface and not surface.available():
        return None
    return surface


def derived_included(*, include: Collection[str] | None, reach: "Reach") -> DerivedSurface | None:
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
