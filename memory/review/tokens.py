"""The owner's API tokens on the review site: create, list, pause and resume, revoke.

Owners make their own tokens, so no operator ever has to mint one that acts
as them. A new token's secret is shown once, on the page that answers the
POST that made it (never in a redirect, a message or a log), and kept by no
one but its digest.
"""

import uuid
from typing import TYPE_CHECKING, Protocol

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from accounts.models import ApiToken, OperatorAction, User
from accounts.selectors import api_token_list
from accounts.services import (
    api_token_create,
    api_token_pause,
    api_token_resume,
    api_token_revoke,
)
from common.review.base import owner_of, redirect_back
from core.errors import ReverieError

from .forms import TokenCreateForm, TokenRevokeForm

if TYPE_CHECKING:
    # The mixin's host, for the checker: at run time ReviewSite comes after it in the bases.
    from common.review.site import ReviewSite as _ReviewSiteBase
else:
    _ReviewSiteBase = object


class _PauseSet(Protocol):
    """``api_token_pause`` or ``api_token_resume``."""

    def __call__(self, *, token_id: uuid.UUID | str, principal: User, via: str) -> ApiToken: ...


class AccountTokensMixin(_ReviewSiteBase):
    """The review site's ``account/tokens/`` pages (mixed into ``ReviewSite``)."""

    def token_urls(self) -> list[URLPattern]:
        return [
            path("account/tokens/", self.admin_view(self.tokens_view), name="account_tokens"),
            path(
                "account/tokens/revoke/",
                self.admin_view(self.token_revoke_view),
                name="account_token_revoke",
            ),
            path(
                "account/tokens/pause/",
                self.admin_view(self.token_pause_view),
                name="account_token_pause",
            ),
            path(
                "account/tokens/resume/",
                self.admin_view(self.token_resume_view),
                name="account_token_resume",
            ),
        ]

    def tokens_view(self, request: HttpRequest) -> TemplateResponse:
        owner = owner_of(request)
        form = TokenCreateForm(request.POST if request.method == "POST" else None)
        created = None
        if request.method == "POST" and form.is_valid():
            try:
                data = form.cleaned_data
                token, secret = api_token_create(
                    principal=owner,
                    name=data["name"],
                    scope=f"assistant:{data['assistant']}" if data["assistant"] else "principal",
                    read_only=data["read_only"],
                    include_sensitive=data["include_sensitive"],
                )
            except ReverieError as error:
                form.add_error(None, error.message)
            else:
                created = {"token": token, "secret": secret}
                form = TokenCreateForm()
        return self.render(
            request,
            "review/account/tokens.html",
            {
                "title": "Your API tokens",
                "tokens": api_token_list(principal=owner, include_revoked=True),
                "form": form,
                "created": created,
            },
        )

    def token_revoke_view(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = TokenRevokeForm(request.POST)
        if form.is_valid():
            try:
                # Scoped to the owner: another owner's token id is not found.
                api_token_revoke(token_id=form.cleaned_data["token"], principal=owner_of(request))
            except ReverieError as error:
                messages.error(request, f"Nothing was revoked: {error.message}")
            else:
                messages.success(request, "The token was revoked; it stopped working at once.")
        else:
            messages.error(request, "Nothing was revoked: the form did not say which token.")
        return HttpResponseRedirect(reverse(f"{self.name}:account_tokens"))

    def token_pause_view(self, request: HttpRequest) -> HttpResponse:
        return self._token_pause_set(
            request,
            api_token_pause,
            done="The token is paused: every request made with it is refused until you resume it.",
            failed="Nothing was paused",
        )

    def token_resume_view(self, request: HttpRequest) -> HttpResponse:
        return self._token_pause_set(
            request,
            api_token_resume,
            done="The token is resumed; it works again.",
            failed="Nothing was resumed",
        )

    def _token_pause_set(
        self, request: HttpRequest, service: _PauseSet, *, done: str, failed: str
    ) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = TokenRevokeForm(request.POST)
        if form.is_valid():
            try:
                # Scoped to the owner: another owner's token id is not found.
                service(
                    token_id=form.cleaned_data["token"],
                    principal=owner_of(request),
                    via=OperatorAction.Via.REVIEW,
                )
            except ReverieError as error:
                messages.error(request, f"{failed}: {error.message}")
            else:
                messages.success(request, done)
        else:
            messages.error(request, f"{failed}: the form did not say which token.")
        # Back to the page the button was on: the token page or the Access page.
        return redirect_back(request, reverse(f"{self.name}:account_tokens"))
