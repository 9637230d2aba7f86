"""The owner's conversations and their messages, read-only.

Formation extends these pages (``formation.review``) with what it could not form and
a way to ask it to try again."""

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.text import Truncator

from common.review.base import OwnerAdmin, fieldset_fields, owner_of
from memory.enums import MESSAGE_EVENT_TYPES, AuthorKind
from memory.models import Event, Session
from memory.selectors.beliefs import belief_list
from memory.selectors.sessions import (
    event_list,
    session_get,
    session_summaries,
)

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _Summary(TypedDict):
    """What ``session_summaries`` adds to each session."""

    first_message: str | None
    messages: int


class SessionAdmin(OwnerAdmin):
    """Each conversation with its messages and the memories formed from them."""

    list_display = (
        "started",
        "external_id",
        "opening",
        "message_count",
        "last_activity_at",
        "state",
    )
    fieldsets = (
        (None, {"fields": ("created_at", "last_activity_at", "closed_at", "erased_at")}),
        (
            "Details",
            {"classes": ("collapse",), "fields": ("external_id", "scope", "public_id")},
        ),
    )
    readonly_fields = fieldset_fields(fieldsets)
    ordering = ("-last_activity_at", "-id")
    change_list_template = "review/session/change_list.html"
    change_form_template = "review/session/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return session_summaries(principal=owner_of(request))

    def get_owned(self, request: HttpRequest, object_id: str) -> Session:
        return session_get(principal=owner_of(request), session_id=object_id)

    @admin.display(description="Started", ordering="created_at")
    def started(self, session: Session) -> datetime:
        return session.created_at

    @admin.display(description="Opening")
    def opening(self, session: "WithAnnotations[Session, _Summary]") -> str:
        if session.erased_at is not None:
            return "(erased)"
        return Truncator(session.first_message or "").chars(90) or "-"

    @admin.display(description="Messages", ordering="messages")
    def message_count(self, session: "WithAnnotations[Session, _Summary]") -> int:
        return session.messages

    @admin.display(description="State")
    def state(self, session: Session) -> str:
        if session.erased_at is not None:
            return "erased"
        return "closed" if session.closed_at is not None else "open"

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(
            request, {"title": "Your conversations", **(extra_context or {})}
        )

    def change_context(self, request: HttpRequest, session: Session) -> dict[str, Any]:
        owner = owner_of(request)
        events = event_list(principal=owner, session_id=session.public_id).filter(
            event_type__in=MESSAGE_EVENT_TYPES
        )
        beliefs = belief_list(principal=owner).filter(sources__event__session=session).distinct()
        return {
            "title": "Conversation",
            "subtitle": session.external_id or session.created_at.strftime("%Y-%m-%d %H:%M"),
            "chat": [
                {
                    "event": event,
                    "author": self._author(event),
                    "mine": event.author_kind == AuthorKind.PRINCIPAL,
                }
                for event in events
            ],
            "beliefs": [(belief, self.change_url(belief)) for belief in beliefs],
        }

    @staticmethod
    def _author(event: Event) -> str:
        if event.author_kind == AuthorKind.PRINCIPAL:
            return "You"
        if event.author_kind == AuthorKind.ASSISTANT:
            return event.author_name or "Assistant"
        return event.author_name or "Someone else"
