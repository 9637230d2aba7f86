"""What reconsolidation shows on memory's own surfaces (``memory.derived``): derived
memories in the memory list, in the export, in the review queue and on each memory's page.

Registered from the app's ``ready``, so that ``memory`` never imports this app.
"""

from collections.abc import Iterable

from django.urls import reverse

from accounts.models import User
from common.principal import principal_context
from common.selectors.flags import surfaces_enabled
from memory.derived import DerivedSurface, DerivedView
from memory.models import Belief

from .selectors.derived import derived_about_belief, derived_awaiting_review, derived_list
from .selectors.derived import derived_views as _views
from .selectors.export import reconsolidation_export
from .selectors.recall import derived_recall_enabled

SURFACE = "reconsolidation_surface"


def review_url(derived_id: str) -> str:
    return reverse("review:reconsolidation_derivedmemory_change", args=[derived_id])


def _available() -> bool:
    return surfaces_enabled((SURFACE,))


def _page(principal: User, *, limit: int, offset: int) -> list[DerivedView]:
    with principal_context(principal):
        return _views(principal, derived_list(principal)[offset : offset + limit])


def _linked(views: Iterable[DerivedView]) -> list[DerivedView]:
    return [{**view, "url": review_url(view["id"])} for view in views]


def _awaiting_review(principal: User, *, limit: int) -> tuple[list[DerivedView], int]:
    with principal_context(principal):
        waiting = derived_awaiting_review(principal)
        return _linked(_views(principal, waiting[:limit])), waiting.count()


def _awaiting_review_url() -> str:
    return reverse("review:section_synthesis") + "?review_state__exact=unreviewed"


def _about_memory(principal: User, belief: Belief) -> list[DerivedView]:
    with principal_context(principal):
        return _linked(derived_about_belief(principal, belief))


surface = DerivedSurface(
    available=_available,
    page=_page,
    export=reconsolidation_export,
    awaiting_review=_awaiting_review,
    awaiting_review_url=_awaiting_review_url,
    about_memory=_about_memory,
    in_recall=derived_recall_enabled,
)
