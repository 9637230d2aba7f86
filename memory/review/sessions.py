"""The owner's conversations and their messages, read-only but for asking formation to try
a conversation again."""

from django.contrib import admin, messages
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.text import Truncator

from memory.enums import MESSAGE_EVENT_TYPES, AuthorKind
from memory.selectors.beliefs import belief_list
from memory.selectors.sessions import (
    event_list,
    formation_failure,
    session_get,
    session_summaries,
)
from memory.services.formation import formation_retry

from .base import OwnerAdmin


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
    fields = (
        "external_id",
        "created_at",
        "last_activity_at",
        "closed_at",
        "erased_at",
        "scope",
        "public_id",
    )
    readonly_fields = fields
    ordering = ("-last_activity_at", "-id")
    change_list_template = "review/session/change_list.html"
    change_form_template = "review/session/change_form.html"

    def get_queryset(self, request):
        return session_summaries(principal=request.user)

    def get_owned(self, request, object_id):
        return session_get(principal=request.user, session_id=object_id)

    @admin.display(description="Started", ordering="created_at")
    def started(self, session):
        return session.created_at

    @admin.display(description="Opening")
    def opening(self, session):
        if session.erased_at is not None:
            return "(erased)"
        return Truncator(session.first_message or "").chars(90) or "-"

    @admin.display(description="Messages", ordering="messages")
    def message_count(self, session):
        return session.messages

    @admin.display(description="State")
    def state(self, session):
        if session.erased_at is not None:
            return "erased"
        state = "closed" if session.closed_at is not None else "open"
        if session.formation_gave_up:
            return f"{state}; memories could not be formed"
        return state

    def get_urls(self):
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<str:object_id>/retry-formation/",
                self.admin_site.admin_view(self.retry_formation_view),
                name=f"{prefix}_retry_formation",
            ),
            *super().get_urls(),
        ]

    def retry_formation_view(self, request, object_id):
        """POST only: formation tries the conversation again at its next sweep."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        session = self.get_object_or_404(request, object_id)
        if formation_retry(principal=request.user, session_id=session.public_id):
            self.message_user(
                request,
                "Reverie will try again to form memories from this conversation shortly.",
                messages.SUCCESS,
            )
        else:
            self.message_user(request, "Nothing was waiting to be tried again.", messages.WARNING)
        return HttpResponseRedirect(self.change_url(session))

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request, {"title": "Your conversations", **(extra_context or {})}
        )

    def change_context(self, request, session):
        events = event_list(principal=request.user, session_id=session.public_id).filter(
            event_type__in=MESSAGE_EVENT_TYPES
        )
        beliefs = (
            belief_list(principal=request.user).filter(sources__event__session=session).distinct()
        )
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
            "formation_failure": formation_failure(principal=request.user, session=session),
            "retry_formation_url": reverse(
                f"{self.admin_site.name}:memory_session_retry_formation",
                args=[session.public_id],
            ),
        }

    @staticmethod
    def _author(event):
        if event.author_kind == AuthorKind.PRINCIPAL:
            return "You"
        if event.author_kind == AuthorKind.ASSISTANT:
            return event.author_name or "Assistant"
        return event.author_name or "Someone else"
