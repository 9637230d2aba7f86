"""The owner's Access page on the review site: which assistant read what, and a pause switch.

Each token the owner made is listed with how it reaches the memories, when it was made
and last used, whether it is paused, how many reads it made in the last seven days, and
its most recent reads with links to the memories they returned. Pause and Resume are
the token page's own forms (``memory.review.tokens``), sent back here. Only the
signed-in owner's tokens and records are ever read.
"""

import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from accounts.selectors import api_token_list, token_pause_history
from common.review.base import owner_of
from memory.models import AccessRecord
from memory.selectors.access import ReadGroup, access_by_token, access_record_list
from memory.selectors.beliefs import belief_list

from .memories import quoted

if TYPE_CHECKING:
    # The mixin's host, for the checker: at run time ReviewSite comes after it in the bases.
    from common.review.site import ReviewSite as _ReviewSiteBase
else:
    _ReviewSiteBase = object

# A memory a read returned, as the page links it: (its page, or None once erased; its
# words), by public id.
MemoryLinks = Mapping[str, tuple[str | None, str]]

# What each read route did, in the owner's words; anything else shows its route name.
# Apps built on memory add their own routes' (``register_route_labels``).
ROUTE_LABELS = {
    "api:recall": "recalled",
    "api:memories": "listed memories",
    "api:memory": "read a memory",
    "api:memory-history": "read a memory's history",
    "api:sessions": "listed conversations",
    "api:session": "looked at a conversation",
    "api:events": "read a conversation's messages",
    "api:run": "looked at a run",
    "api:export": "exported everything",
}


def register_route_labels(labels: Mapping[str, str]) -> None:
    """Show the reads through the routes of ``labels`` ({route name: what a read through it
    did, in the owner's words}) in those words on the Access pages."""
    ROUTE_LABELS.update(labels)


RECENT_READS = 10
TOKEN_READS = 100
# What an assistant read to answer someone, shown before its housekeeping reads (listing
# memories or conversations to keep in step).
FIRST_ROUTES = ("api:recall",)


class AccessPageMixin(_ReviewSiteBase):
    """The review site's ``access/`` pages (mixed into ``ReviewSite``)."""

    def access_urls(self) -> list[URLPattern]:
        return [
            path("access/", self.admin_view(self.access_view), name="access"),
            path(
                "access/<uuid:token_id>/",
                self.admin_view(self.access_token_view),
                name="access_token",
            ),
        ]

    def access_view(self, request: HttpRequest) -> TemplateResponse:
        owner = owner_of(request)
        tokens = access_by_token(principal=owner, recent=RECENT_READS, first_routes=FIRST_ROUTES)
        names = {str(row["token"].public_id): row["token"].name for row in tokens}
        groups = [group for row in tokens for group in row["recent"]]
        memories = self._memory_links(request, groups)
        rows = [
            {**row, "recent": [self._group_view(group, memories) for group in row["recent"]]}
            for row in tokens
        ]
        changes = [
            {"action": action, "token_name": names.get(action.target, "a deleted token")}
            for action in token_pause_history(principal=owner)[:20]
        ]
        return self.render(
            request,
            "review/account/access.html",
            {
                "title": "Access",
                "tokens": rows,
                "pause_changes": changes,
                "retention_days": settings.REVERIE_ACCESS["retention_days"],
            },
        )

    def access_token_view(self, request: HttpRequest, token_id: uuid.UUID) -> TemplateResponse:
        owner = owner_of(request)
        token = (
            api_token_list(principal=owner, include_revoked=True).filter(public_id=token_id).first()
        )
        if token is None:
            raise Http404
        reads = list(access_record_list(principal=owner, token_id=token.public_id)[:TOKEN_READS])
        memories = self._memory_links(request, reads)
        return self.render(
            request,
            "review/account/access_token.html",
            {
                "title": f"Reads by {token.name}",
                "token": token,
                "reads": [self._read_view(record, memories) for record in reads],
                "shown": TOKEN_READS,
                "retention_days": settings.REVERIE_ACCESS["retention_days"],
            },
        )

    def _memory_links(
        self, request: HttpRequest, records: Iterable[AccessRecord | ReadGroup]
    ) -> dict[str, tuple[str | None, str]]:
        """{public id: (url, label)} of the owner's memories these records (or groups of
        them) returned."""
        ids = {public_id for record in records for public_id in record.memory_ids}
        beliefs = belief_list(principal=owner_of(request)).filter(public_id__in=ids)
        return {
            str(belief.public_id): (
                reverse(f"{self.name}:memory_belief_change", args=[belief.public_id]),
                quoted(belief, limit=60),
            )
            for belief in beliefs
        }

    @staticmethod
    def _group_view(group: ReadGroup, memories: MemoryLinks) -> dict[str, Any]:
        what = ROUTE_LABELS.get(group.route, group.route)
        return {
            "at": group.last_at,
            "first_at": group.first_at if group.count > 1 else None,
            "what": f"{what} ×{group.count}" if group.count > 1 else what,
            "memories": [
                memories.get(public_id, (None, "a memory no longer held"))
                for public_id in group.memory_ids
            ],
            "messages": group.messages,
            "derived": group.derived,
        }

    @staticmethod
    def _read_view(record: AccessRecord, memories: MemoryLinks) -> dict[str, Any]:
        return {
            "at": record.created_at,
            "what": ROUTE_LABELS.get(record.route, record.route),
            # A memory no longer held (erased with its conversation) has no page.
            "memories": [
                memories.get(public_id, (None, "a memory no longer held"))
                for public_id in record.memory_ids
            ],
            "messages": len(record.message_ids),
            "derived": len(record.derived_ids),
            "request_id": record.request_id,
        }
