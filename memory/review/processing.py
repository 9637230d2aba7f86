"""The owner's choice about language models on the review site: see it, change it.

The page says in plain words what the current choice means; the change is a
POST that names the choice wanted and acts only on the signed-in owner's
account (the form names no account, so no owner can change another's).
"""

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from accounts.selectors import model_processing_allowed, model_processing_history
from accounts.services import model_processing_set
from common.review.base import owner_of

if TYPE_CHECKING:
    # The mixin's host, for the checker: at run time ReviewSite comes after it in the bases.
    from common.review.site import ReviewSite as _ReviewSiteBase
else:
    _ReviewSiteBase = object


class ModelProcessingForm(forms.Form):
    """What the owner chose. It names the state wanted, not a toggle: the same form sent
    twice changes nothing the second time."""

    ALLOW = "allow"
    OPT_OUT = "opt_out"

    choice = forms.ChoiceField(
        choices=((ALLOW, "Allow model processing"), (OPT_OUT, "Opt out of model processing")),
        widget=forms.HiddenInput,
    )


OPTED_OUT = "Reverie never sends your conversations or memories to a language model."


class ModelProcessingMixin(_ReviewSiteBase):
    """The review site's ``account/model-processing/`` pages (mixed into ``ReviewSite``)."""

    def model_processing_urls(self) -> list[URLPattern]:
        return [
            path(
                "account/model-processing/",
                self.admin_view(self.model_processing_view),
                name="account_model_processing",
            ),
            path(
                "account/model-processing/set/",
                self.admin_view(self.model_processing_set_view),
                name="account_model_processing_set",
            ),
        ]

    def model_processing_view(self, request: HttpRequest) -> TemplateResponse:
        owner = owner_of(request)
        return self.render(
            request,
            "review/account/model_processing.html",
            {
                "title": "Language models",
                "allowed": model_processing_allowed(owner),
                "opted_out_text": OPTED_OUT,
                "history": model_processing_history(principal=owner)[:20],
            },
        )

    def model_processing_set_view(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = ModelProcessingForm(request.POST)
        if form.is_valid():
            allowed = form.cleaned_data["choice"] == ModelProcessingForm.ALLOW
            model_processing_set(principal=owner_of(request), allowed=allowed)
            if allowed:
                messages.success(
                    request,
                    "Model processing is allowed: a language model may be used only through "
                    "a certified capability the operator has switched on.",
                )
            else:
                messages.success(request, f"You opted out. {OPTED_OUT}")
        else:
            messages.error(request, "Nothing changed: the form did not say what you chose.")
        return HttpResponseRedirect(reverse(f"{self.name}:account_model_processing"))
