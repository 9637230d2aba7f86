"""Formation on the owner review site: a conversation formation gave up on says so and
offers to try again, and memories that may have changed wait for the owner's decision
(``formation.challenge_review``).

Memory's conversation pages know nothing of formation; this extends them the way one
app extends another's admin, by registering a subclass in place of memory's.
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import URLPattern, path, reverse

from common.review.base import owner_of
from formation.selectors import formation_failure, sessions_given_up
from formation.services import formation_retry
from memory.models import Session
from memory.review.sessions import SessionAdmin


class FormationSessionAdmin(SessionAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return sessions_given_up(super().get_queryset(request), principal=owner_of(request))

    @admin.display(description="State")
    def state(self, session: Any) -> str:
        state = super().state(session)
        if session.erased_at is None and session.formation_gave_up:
            return f"{state}; memories could not be formed"
        return state

    def get_urls(self) -> list[URLPattern]:
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<str:object_id>/retry-formation/",
                self.admin_site.admin_view(self.retry_formation_view),
                name=f"{prefix}_retry_formation",
            ),
            *super().get_urls(),
        ]

    def retry_formation_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """POST only: formation tries the conversation again at its next sweep."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        session = self.get_object_or_404(request, object_id)
        if formation_retry(principal=owner_of(request), session_id=session.public_id):
            self.message_user(
                request,
                "Reverie will try again to form memories from this conversation shortly.",
                messages.SUCCESS,
            )
        else:
            self.message_user(request, "Nothing was waiting to be tried again.", messages.WARNING)
        return HttpResponseRedirect(self.change_url(session))

    def change_context(self, request: HttpRequest, session: Session) -> dict[str, Any]:
        return {
            **super().change_context(request, session),
            "formation_failure": formation_failure(principal=owner_of(request), session=session),
            "retry_formation_url": reverse(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}"
                "_retry_formation",
                args=[session.public_id],
            ),
        }


# What a read through each of formation's API routes did, for the owner's Access page.
ROUTE_LABELS = {
    "formation_api:challenges": "listed memories that may have changed",
    "formation_api:challenge": "read a memory that may have changed",
}


def review_register() -> None:
    from common.review.site import ReviewSection
    from memory.review.access import register_route_labels
    from memory.review.site import review_site

    from .challenge_review import ChallengeAdmin, challenges_card
    from .models import Challenge

    if not isinstance(review_site.get_model_admin(Session), FormationSessionAdmin):
        review_site.unregister(Session)
        review_site.register(Session, FormationSessionAdmin)
    if not review_site.is_registered(Challenge):
        review_site.register(Challenge, ChallengeAdmin)
    review_site.add_section(
        ReviewSection(
            slug="changes",
            label="May have changed",
            url_name="review:formation_challenge_changelist",
            visible=lambda request: True,
            card=challenges_card,
        )
    )
    register_route_labels(ROUTE_LABELS)
