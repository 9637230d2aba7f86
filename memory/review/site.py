"""The owner review site people use: the shared shell (``common.review.site``) with memory's
pages in it: the review queue, memories, conversations, access, tokens and the account.

Apps built on memory add their sections to ``review_site`` (``add_section``).
"""

import json
from collections.abc import Sequence
from typing import Any, cast

from django.apps import AppConfig
from django.contrib import messages
from django.contrib.auth import logout
from django.core.checks import CheckMessage
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, include, path, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header

from accounts.audit import operator_actions_for
from accounts.selectors import model_processing_allowed
from common.review.base import owner_of
from common.review.site import ReviewSite
from core.errors import ReverieError
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief, Session
from memory.review.processing import ModelProcessingMixin
from memory.selectors.access import access_summary
from memory.selectors.beliefs import belief_list
from memory.selectors.sessions import session_list
from memory.services.account import account_erase, account_erasure_request, account_export

from .access import AccessPageMixin
from .forms import AccountErasureForm
from .memories import MemoryAdmin, ReviewQueueAdmin
from .sessions import SessionAdmin
from .tokens import AccountTokensMixin


class MemoryReviewSite(AccessPageMixin, AccountTokensMixin, ModelProcessingMixin, ReviewSite):
    """The shell with memory's pages: the queue, the account and its tokens, the access log
    and the owner's choice about language models."""

    # The home page: what waits in the queue, the memories and conversations, the sections.
    index_template = "review/index.html"

    def __init__(self, name: str = "review") -> None:
        super().__init__(name)
        self.queue_admin = ReviewQueueAdmin(Belief, self)

    def navigation(self, request: HttpRequest) -> list[tuple[str, str]]:
        return [
            ("Review queue", reverse(f"{self.name}:review_queue")),
            ("Memories", reverse(f"{self.name}:memory_belief_changelist")),
            ("Conversations", reverse(f"{self.name}:memory_session_changelist")),
            *super().navigation(request),
            ("Access", reverse(f"{self.name}:access")),
            ("Account", reverse(f"{self.name}:account")),
        ]

    def check(self, app_configs: Sequence[AppConfig] | None) -> list[CheckMessage]:
        # The queue is mounted, not registered, so the registry's checks miss it.
        return [*super().check(app_configs), *self.queue_admin.check()]

    def get_urls(self) -> list[URLResolver | URLPattern]:
        return [
            path("queue/", include(self.queue_admin.urls)),
            path("account/", self.admin_view(self.account_view), name="account"),
            path(
                "account/export/",
                self.admin_view(self.account_export_view),
                name="account_export",
            ),
            path("account/erase/", self.admin_view(self.account_erase_view), name="account_erase"),
            *self.token_urls(),
            *self.access_urls(),
            *self.model_processing_urls(),
            *super().get_urls(),
        ]

    def index(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> TemplateResponse:
        owner = owner_of(request)
        memories_waiting, derived_waiting = self.queue_admin.waiting_counts(request)
        access_tokens, access_reads, last_read_at = access_summary(principal=owner)
        context = {
            "queue_count": memories_waiting + derived_waiting,
            "memories_waiting": memories_waiting,
            "derived_waiting": derived_waiting,
            "section_cards": [
                {"section": section, "url": reverse(section.url_name), **section.card(request)}
                for section in self.visible_sections(request)
                if section.card is not None
            ],
            "memory_count": belief_list(principal=owner, statuses=LIVE_BELIEF_STATUSES).count(),
            "session_count": session_list(principal=owner).count(),
            "access_tokens": access_tokens,
            "access_reads": access_reads,
            "last_read_at": last_read_at,
            **(extra_context or {}),
        }
        return super().index(request, context)

    def account_view(self, request: HttpRequest) -> TemplateResponse:
        owner = owner_of(request)
        return self.render(
            request,
            "review/account/account.html",
            {
                "title": "Your account",
                "operator_actions": operator_actions_for(principal=owner)[:50],
                "model_processing_allowed": model_processing_allowed(owner),
            },
        )

    def account_export_view(self, request: HttpRequest) -> HttpResponse:
        """Everything Reverie holds for the owner, downloaded as one JSON file."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        export = account_export(principal=owner_of(request))
        response = HttpResponse(
            json.dumps(export, cls=DjangoJSONEncoder, indent=2),
            content_type="application/json",
        )
        # None only for a file neither attached nor named.
        response["Content-Disposition"] = cast(
            str,
            content_disposition_header(
                as_attachment=True,
                filename=f"reverie-export-{timezone.now():%Y-%m-%d}.json",
            ),
        )
        sessions, memories = len(export["sessions"]), len(export["memories"])
        messages.success(
            request,
            f"Exported {sessions} conversation{pluralize(sessions)} "
            f"and {memories} memor{pluralize(memories, 'y,ies')}.",
        )
        return response

    def account_erase_view(self, request: HttpRequest) -> HttpResponse:
        """Erase the owner's account and everything in it, after one explicit confirmation.

        The account services confirm erasure in two steps (a short-lived token,
        then the erasure) so that an API client has to come back to confirm.
        Here this page is that confirmation: it says what will be lost, and
        only a CSRF-protected POST from the signed-in owner, with their
        username typed out, goes ahead; it asks for the token and spends it at
        once. A second page would only ask the same question again.
        """
        owner = owner_of(request)
        form = AccountErasureForm(
            request.POST if request.method == "POST" else None,
            expected_username=owner.get_username(),
        )
        if request.method == "POST":
            if not form.is_valid():
                messages.error(request, "Nothing was erased: the username did not match.")
            else:
                try:
                    token = account_erasure_request(principal=owner)["token"]
                    account_erase(principal=owner, token=token)
                except ReverieError as error:
                    messages.error(request, f"Nothing was erased: {error.message}")
                else:
                    logout(request)
                    # Added after logout so that it survives the session's flush.
                    messages.success(
                        request,
                        "Your account was erased, with every conversation and memory in it.",
                    )
                    return HttpResponseRedirect(reverse(f"{self.name}:login"))
        return self.render(
            request,
            "review/account/erase.html",
            {"title": "Erase your account", "form": form},
        )


review_site = MemoryReviewSite()
review_site.register(Belief, MemoryAdmin)
review_site.register(Session, SessionAdmin)
