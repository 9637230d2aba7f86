"""Setting a password through a one-time link (see ``accounts.onboarding``)."""

from django.contrib import messages
from django.contrib.auth.views import PasswordResetConfirmView
from django.urls import reverse


def password_set_path(*, uidb64, token):
    """The path of the page that sets a password from a one-time link
    (``accounts.onboarding.register_password_page``)."""
    return reverse("review:password_set", kwargs={"uidb64": uidb64, "token": token})


class PasswordSetView(PasswordResetConfirmView):
    """Django's reset confirmation, on the review site: no sign-in needed, one use."""

    template_name = "review/account/password_set.html"
    site = None

    def get_success_url(self):
        return reverse(f"{self.site.name}:login")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set. Sign in with it.")
        return response

    def get_context_data(self, **kwargs):
        return {
            **self.site.each_context(self.request),
            **super().get_context_data(**kwargs),
            "title": "Set your password",
        }
