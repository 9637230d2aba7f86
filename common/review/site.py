"""The owner review site's shell: an ``AdminSite`` that admits any active user, signs them in
(throttled), lets them set their password from a one-time link, and shows the sections
the apps add to it.

Each owner sees only their own rows: every page lists and fetches through
selectors scoped to ``request.user`` (and on PostgreSQL the request also runs
inside that user's principal context, so row-level security agrees). Staff
status grants nothing extra here. Memory's pages make the site people use
(``memory.review.site``).
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial, wraps
from typing import Any, TypeVar, cast

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path, reverse

from accounts.forms import OwnerAuthenticationForm
from accounts.site_login import SiteLoginMixin
from core.admin_lookups import DeclaredLookupsSite

from .password import PasswordSetView

_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])


class SectionUnavailable(Http404):
    """A page of a section that is switched off on this Reverie (a surface flag): the
    owner is told so in their words (``review/unavailable.html``), never shown a
    debugging page."""

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


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
    visible: Callable[[HttpRequest], bool]
    card: Callable[[HttpRequest], dict[str, Any]] | None = None


class ReviewSite(SiteLoginMixin, DeclaredLookupsSite, admin.AdminSite):
    site_header = "Reverie: your memories"
    site_title = "Reverie review"
    index_title = "Your memories"
    # There is no public site to go back to.
    site_url = None
    enable_nav_sidebar = False
    # Any active user may sign in (not only staff), throttled.
    login_form = OwnerAuthenticationForm
    lookup_refused_template = "review/lookup_refused.html"
    password_change_template = "review/account/password_change_form.html"
    password_change_done_template = "review/account/password_change_done.html"

    def __init__(self, name: str = "review") -> None:
        super().__init__(name)
        # Rows are never deleted through the admin: erasing a memory is a
        # service that leaves a tombstone.
        self.disable_action("delete_selected")
        self.sections: list[ReviewSection] = []

    def add_section(self, section: ReviewSection) -> None:
        """Add ``section`` (a ``ReviewSection``) to the navigation, home page and URLs."""
        if all(existing.slug != section.slug for existing in self.sections):
            self.sections.append(section)

    def visible_sections(self, request: HttpRequest) -> list[ReviewSection]:
        return [section for section in self.sections if section.visible(request)]

    def navigation(self, request: HttpRequest) -> list[tuple[str, str]]:
        """``(label, url)`` of each entry of the site's navigation: its visible sections."""
        return [
            (section.label, reverse(section.url_name)) for section in self.visible_sections(request)
        ]

    def each_context(self, request: HttpRequest) -> dict[str, Any]:
        context = super().each_context(request)
        if request.user.is_active:
            context["review_nav"] = self.navigation(request)
        return context

    def has_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active

    def get_urls(self) -> list[URLResolver | URLPattern]:
        return [
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

    def admin_view(self, view: _View, cacheable: bool = False) -> _View:
        inner = super().admin_view(view, cacheable)

        @wraps(inner)
        def answered(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            # Caught here rather than left to Django's 404 handling, which shows the
            # URL patterns while DEBUG is on (as in the demo): the owner gets the site's
            # own page, with its navigation, whatever the settings.
            try:
                return inner(request, *args, **kwargs)
            except SectionUnavailable as unavailable:
                template = "review/unavailable.html"
                context = {"title": "Not available", "section": unavailable.label}
            except Http404:
                template, context = "review/not_found.html", {"title": "Not found"}
            response = self.render(request, template, context)
            response.status_code = 404
            return response

        # ``answered`` takes what ``view`` takes and answers as it does, or with a 404 page.
        return cast(_View, answered)

    def section_view(self, request: HttpRequest, section: ReviewSection) -> HttpResponse:
        """A section's short path: on to its page, or a 404 while it is hidden."""
        if not section.visible(request):
            raise SectionUnavailable(section.label)
        query = request.GET.urlencode()
        return HttpResponseRedirect(reverse(section.url_name) + (f"?{query}" if query else ""))

    def render(
        self, request: HttpRequest, template: str, context: dict[str, Any]
    ) -> TemplateResponse:
        request.current_app = self.name
        return TemplateResponse(request, template, {**self.each_context(request), **context})
