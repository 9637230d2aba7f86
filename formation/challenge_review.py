"""Challenges on the owner review site: "This may have changed", with keep and replace.

The list shows the owner's challenges (open ones unless they ask for others); a
challenge's page shows the memory that stands and the proposal that may have
changed it, each with the messages it rests on, and the two decisions as
CSRF-protected POST forms. Decisions go through ``formation.challenges``; a
second click is a repeat that changes nothing.
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.text import Truncator

from common.review.base import DefaultChoiceFilter, OwnerAdmin, owner_of
from core.errors import ReverieError
from formation.challenge_selectors import (
    challenge_get,
    challenge_list,
    challenge_view,
    open_challenge_count,
)
from formation.challenges import challenge_keep, challenge_replace
from formation.models import Challenge

DECISIONS = {
    "keep": (challenge_keep, "Kept: your memory stays as it is, and this will not be asked again."),
    "replace": (
        challenge_replace,
        "Replaced: the new memory is yours now, and the old one is kept only in its history.",
    ),
}


def challenges_card(request: HttpRequest) -> dict[str, Any]:
    waiting = open_challenge_count(owner_of(request))
    return {
        "count": waiting,
        "text": f"memor{'y' if waiting == 1 else 'ies'} may have changed: keep or replace "
        f"{'it' if waiting == 1 else 'them'}.",
    }


# The state in the owner's words, as the filter names it.
_DECISIONS: dict[str, str] = {
    Challenge.State.OPEN: "Waiting for you",
    Challenge.State.KEPT: "Kept",
    Challenge.State.REPLACED: "Replaced",
}


class StateFilter(DefaultChoiceFilter):
    """Open challenges unless the owner asks for the decided ones."""

    title = "state"
    parameter_name = "state"
    default = Challenge.State.OPEN

    def lookups(
        self, request: HttpRequest, model_admin: "admin.ModelAdmin[Any]"
    ) -> list[tuple[str, str]]:
        return [*_DECISIONS.items(), (self.ALL, "All")]

    def chosen(self, queryset: QuerySet[Any], value: str) -> QuerySet[Any]:
        return queryset.filter(state=value)


class ChallengeAdmin(OwnerAdmin):
    list_display = ("standing_statement", "proposal_statement", "decision", "created_at")
    list_display_links = ("proposal_statement",)
    list_filter = (StateFilter,)
    ordering = ("-created_at", "-id")
    change_list_template = "review/formation/challenge_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Challenge]:
        return challenge_list(owner_of(request))

    def get_owned(self, request: HttpRequest, object_id: str) -> Challenge:
        return challenge_get(owner_of(request), object_id)

    @admin.display(description="Your memory")
    def standing_statement(self, challenge: Challenge) -> str:
        return Truncator(challenge.standing.statement).chars(140) or "(erased)"

    @admin.display(description="What may have changed")
    def proposal_statement(self, challenge: Challenge) -> str:
        return Truncator(challenge.statement).chars(140)

    @admin.display(description="Your decision", ordering="state")
    def decision(self, challenge: Challenge) -> str:
        return _DECISIONS[challenge.state]

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<str:object_id>/decide/<str:decision>/",
                view(self.decision_view),
                name="formation_challenge_decide",
            ),
            *super().get_urls(),
        ]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(
            request, {"title": "This may have changed", **(extra_context or {})}
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        challenge = self.get_object_or_404(request, object_id)
        memories = self.admin_site.get_model_admin(type(challenge.standing))
        # Every model of the review site has an owner's admin.
        assert isinstance(memories, OwnerAdmin)
        view = challenge_view(owner_of(request), challenge)
        return self.render(
            request,
            "review/formation/challenge.html",
            {
                "title": "This may have changed",
                "challenge": challenge,
                "view": view,
                "standing_url": memories.change_url(challenge.standing),
                "replacement_url": memories.change_url(challenge.replacement)
                if challenge.replacement
                else None,
                "keep_url": self.decision_url(challenge, "keep"),
                "replace_url": self.decision_url(challenge, "replace"),
            },
        )

    def decision_url(self, challenge: Challenge, decision: str) -> str:
        return reverse(
            f"{self.admin_site.name}:formation_challenge_decide",
            args=[challenge.public_id, decision],
        )

    def decision_view(self, request: HttpRequest, object_id: str, decision: str) -> HttpResponse:
        """POST only: the owner keeps their memory or replaces it with the proposal."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        challenge = self.get_object_or_404(request, object_id)
        if decision not in DECISIONS:
            return HttpResponseRedirect(self.change_url(challenge))
        decide, done = DECISIONS[decision]
        try:
            decide(principal=owner_of(request), challenge_id=challenge.public_id)
        except ReverieError as error:
            self.message_user(request, f"Nothing was changed: {error.message}", messages.ERROR)
        else:
            self.message_user(request, done, messages.SUCCESS)
        return HttpResponseRedirect(self.change_url(challenge))
