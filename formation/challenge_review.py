"""Challenges on the owner review site: "This may have changed", with keep and replace.

The list shows the owner's challenges (open ones unless they ask for others); a
challenge's page shows the memory that stands and the proposal that may have
changed it, each with the messages it rests on, and the two decisions as
CSRF-protected POST forms. Decisions go through ``formation.challenges``; a
second click is a repeat that changes nothing.
"""

from django.contrib import admin, messages
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.text import Truncator

from common.review.base import DefaultChoiceFilter, OwnerAdmin
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


def challenges_card(request):
    waiting = open_challenge_count(request.user)
    return {
        "count": waiting,
        "text": f"memor{'y' if waiting == 1 else 'ies'} may have changed: keep or replace "
        f"{'it' if waiting == 1 else 'them'}.",
    }


# The state in the owner's words, as the filter names it.
_DECISIONS = {
    Challenge.State.OPEN: "Waiting for you",
    Challenge.State.KEPT: "Kept",
    Challenge.State.REPLACED: "Replaced",
}


class StateFilter(DefaultChoiceFilter):
    """Open challenges unless the owner asks for the decided ones."""

    title = "state"
    parameter_name = "state"
    default = Challenge.State.OPEN

    def lookups(self, request, model_admin):
        return [*_DECISIONS.items(), (self.ALL, "All")]

    def chosen(self, queryset, value):
        return queryset.filter(state=value)


class ChallengeAdmin(OwnerAdmin):
    list_display = ("standing_statement", "proposal_statement", "decision", "created_at")
    list_display_links = ("proposal_statement",)
    list_filter = (StateFilter,)
    ordering = ("-created_at", "-id")
    change_list_template = "review/formation/challenge_list.html"

    def get_queryset(self, request):
        return challenge_list(request.user)

    def get_owned(self, request, object_id):
        return challenge_get(request.user, object_id)

    @admin.display(description="Your memory")
    def standing_statement(self, challenge):
        return Truncator(challenge.standing.statement).chars(140) or "(erased)"

    @admin.display(description="What may have changed")
    def proposal_statement(self, challenge):
        return Truncator(challenge.statement).chars(140)

    @admin.display(description="Your decision", ordering="state")
    def decision(self, challenge):
        return _DECISIONS[challenge.state]

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "<str:object_id>/decide/<str:decision>/",
                view(self.decision_view),
                name="formation_challenge_decide",
            ),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request, {"title": "This may have changed", **(extra_context or {})}
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        challenge = self.get_object_or_404(request, object_id)
        memories = self.admin_site.get_model_admin(type(challenge.standing))
        view = challenge_view(request.user, challenge)
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

    def decision_url(self, challenge, decision):
        return reverse(
            f"{self.admin_site.name}:formation_challenge_decide",
            args=[challenge.public_id, decision],
        )

    def decision_view(self, request, object_id, decision):
        """POST only: the owner keeps their memory or replaces it with the proposal."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        challenge = self.get_object_or_404(request, object_id)
        if decision not in DECISIONS:
            return HttpResponseRedirect(self.change_url(challenge))
        decide, done = DECISIONS[decision]
        try:
            decide(principal=request.user, challenge_id=challenge.public_id)
        except ReverieError as error:
            self.message_user(request, f"Nothing was changed: {error.message}", messages.ERROR)
        else:
            self.message_user(request, done, messages.SUCCESS)
        return HttpResponseRedirect(self.change_url(challenge))
