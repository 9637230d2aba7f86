"""Setting a password through a one-time link (see ``accounts.onboarding``)."""

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import PasswordResetConfirmView
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.urls import reverse


def password_set_path(*, uidb64: str, token: str) -> str:
    """The path of the page that sets a password from a one-time link
    (``accounts.onboarding.register_password_page``)."""
    return reverse("review:password_set", kwargs={"uidb64": uidb64, "token": token})


class PasswordSetView(PasswordResetConfirmView):
    """Django's reset confirmation, on the review site: no sign-in needed, one use."""

    template_name = "review/account/password_set.html"
    site: admin.AdminSite | None = None

    def _site(self) -> admin.AdminSite:
        if self.site is None:
            raise ImproperlyConfigured("PasswordSetView.as_view() needs site=, the review site")
        return self.site

    def get_success_url(self) -> str:
        return reverse(f"{self._site().name}:login")

    def form_valid(self, form: "SetPasswordForm[Any]") -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set. Sign in with it.")
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {
            **self._site().each_context(self.request),
            **super().get_context_data(**kwargs),
            "title": "Set your password",
        }
