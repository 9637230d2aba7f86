"""The owner review site: an ``AdminSite`` that admits any active user.

Each owner sees only their own rows: every page lists and fetches through
selectors scoped to ``request.user`` (and on PostgreSQL the request also runs
inside that user's principal context, so row-level security agrees). Staff
status grants nothing extra here.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.contrib import admin, messages
from django.contrib.auth import logout
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import include, path, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header

from accounts.audit import operator_actions_for
from accounts.forms import OwnerAuthenticationForm
from accounts.selectors import model_processing_allowed
from accounts.site_login import SiteLoginMixin
from core.admin_lookups import DeclaredLookupsSite
from core.errors import ReverieError
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief, Session
from memory.selectors.beliefs import belief_list
from memory.selectors.sessions import session_list
from memory.services.account import account_erase, account_erasure_request, account_export

from .access import AccessPageMixin
from .forms import AccountErasureForm
from .memories import MemoryAdmin, ReviewQueueAdmin
from .password import PasswordSetView
from .processing import ModelProcessingMixin
from .sessions import SessionAdmin
from .tokens import AccountTokensMixin


@dataclass(frozen=True)
class ReviewSection:
    """A section an app built on memory adds to the review site (``ReviewSite.add_section``).

    ``slug`` is its short path (``/review/<slug>/`` redirects to ``url_name``);
    ``visible(request)`` says whether it exists for this request (a surface
    flag, say): hidden, it is neither in the navigation nor reachable by its
    path. ``card(request)``, if given, returns ``{"count": int, "text": str}``
    for the home page.
    """

    slug: str
    label: str
    url_name: str
    visible: Callable
    card: Callable | None = None


class ReviewSite(
    SiteLoginMixin,
    AccessPageMixin,
    AccountTokensMixin,
    ModelProcessingMixin,
    DeclaredLookupsSite,
    admin.AdminSite,
):
    site_header = "Reverie: your memories"
    site_title = "Reverie review"
    index_title = "Your memories"
    # There is no public site to go back to.
    site_url = None
    enable_nav_sidebar = False
    # Any active user may sign in (not only staff), throttled.
    login_form = OwnerAuthenticationForm
    index_template = "review/index.html"
    lookup_refused_template = "review/lookup_refused.html"

    def __init__(self, name="review"):
        super().__init__(name)
        # Rows are never deleted through the admin: erasing a memory is a
        # service that leaves a tombstone.
        self.disable_action("delete_selected")
        self.queue_admin = ReviewQueueAdmin(Belief, self)
        self.sections = []

    def add_section(self, section):
        """Add ``section`` (a ``ReviewSection``) to the navigation, home page and URLs."""
        if all(existing.slug != section.slug for existing in self.sections):
            self.sections.append(section)

    def visible_sections(self, request):
        return [section for section in self.sections if section.visible(request)]

    def each_context(self, request):
        context = super().each_context(request)
        if request.user.is_active:
            sections = [
                (section.label, reverse(section.url_name))
                for section in self.visible_sections(request)
            ]
            context["review_nav"] = [
                ("Review queue", reverse(f"{self.name}:review_queue")),
                ("Memories", reverse(f"{self.name}:memory_belief_changelist")),
                ("Conversations", reverse(f"{self.name}:memory_session_changelist")),
                *sections,
                ("Access", reverse(f"{self.name}:access")),
                ("Account", reverse(f"{self.name}:account")),
            ]
        return context

    def has_permission(self, request):
        return request.user.is_active

    def check(self, app_configs):
        # The queue is mounted, not registered, so the registry's checks miss it.
        return [*super().check(app_configs), *self.queue_admin.check()]

    def get_urls(self):
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
            # Reached signed out, by the link the administrator handed over.
            path(
                "password/<uidb64>/<token>/",
                PasswordSetView.as_view(site=self),
                name="password_set",
            ),
            *(
                path(
                    f"{section.slug}/",
                    self.admin_view(partial(self.section_view, section=section)),
                    name=f"section_{section.slug}",
                )
                for section in self.sections
            ),
            *super().get_urls(),
        ]

    def section_view(self, request, section):
        """A section's short path: on to its page, or a 404 while it is hidden."""
        if not section.visible(request):
            raise Http404
        query = request.GET.urlencode()
        return HttpResponseRedirect(reverse(section.url_name) + (f"?{query}" if query else ""))

    def render(self, request, template, context):
        request.current_app = self.name
        return TemplateResponse(request, template, {**self.each_context(request), **context})

    def index(self, request, extra_context=None):
        context = {
            "queue_count": self.queue_admin.get_queryset(request).count()
            + self.queue_admin.derived_waiting(request, limit=0)[1],
            "section_cards": [
                {"section": section, "url": reverse(section.url_name), **section.card(request)}
                for section in self.visible_sections(request)
                if section.card is not None
            ],
            "memory_count": belief_list(
                principal=request.user, statuses=LIVE_BELIEF_STATUSES
            ).count(),
            "session_count": session_list(principal=request.user).count(),
            **(extra_context or {}),
        }
        return super().index(request, context)

    def account_view(self, request):
        return self.render(
            request,
            "review/account/account.html",
            {
                "title": "Your account",
                "operator_actions": operator_actions_for(principal=request.user)[:50],
                "model_processing_allowed": model_processing_allowed(request.user),
            },
        )

    def account_export_view(self, request):
        """Everything Reverie holds for the owner, downloaded as one JSON file."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        export = account_export(principal=request.user)
        response = HttpResponse(
            json.dumps(export, cls=DjangoJSONEncoder, indent=2),
            content_type="application/json",
        )
        response["Content-Disposition"] = content_disposition_header(
            as_attachment=True,
            filename=f"reverie-export-{timezone.now():%Y-%m-%d}.json",
        )
        sessions, memories = len(export["sessions"]), len(export["memories"])
        messages.success(
            request,
            f"Exported {sessions} conversation{pluralize(sessions)} "
            f"and {memories} memor{pluralize(memories, 'y,ies')}.",
        )
        return response

    def account_erase_view(self, request):
        """Erase the owner's account and everything in it, after one explicit confirmation.

        The account services confirm erasure in two steps (a short-lived token,
        then the erasure) so that an API client has to come back to confirm.
        Here this page is that confirmation: it says what will be lost, and
        only a CSRF-protected POST from the signed-in owner, with their
        username typed out, goes ahead; it asks for the token and spends it at
        once. A second page would only ask the same question again.
        """
        form = AccountErasureForm(
            request.POST if request.method == "POST" else None,
            expected_username=request.user.get_username(),
        )
        if request.method == "POST":
            if not form.is_valid():
                messages.error(request, "Nothing was erased: the username did not match.")
            else:
                try:
                    token = account_erasure_request(principal=request.user)["token"]
                    account_erase(principal=request.user, token=token)
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


review_site = ReviewSite()
review_site.register(Belief, MemoryAdmin)
review_site.register(Session, SessionAdmin)
