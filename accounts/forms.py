from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from .client_address import client_address
from .login_throttle import (
    login_failure_record,
    login_refused,
    login_retry_minutes,
    login_success_record,
)


class ThrottledLoginMixin:
    """Refuse sign-ins past the failure limit (see ``accounts.login_throttle``)."""

    def clean(self):
        username = self.cleaned_data.get("username")
        address = client_address(self.request) if self.request is not None else ""
        if login_refused(username=username, address=address):
            raise forms.ValidationError(
                "Too many failed sign-ins for this account or from this address. "
                f"Try again in {login_retry_minutes()} minutes.",
                code="throttled",
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            login_failure_record(username=username, address=address)
            raise
        login_success_record(username=username, address=address)
        return cleaned


class OwnerAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    """The review site's sign-in: any active user, throttled."""

    required_css_class = "required"


class OperatorAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The operator admin's sign-in: staff only, throttled."""
