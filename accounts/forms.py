from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from .client_address import client_address
from .login_throttle import login_attempt_begin, login_attempt_failed, login_attempt_succeeded

REFUSED = (
    "Too many failed sign-ins from this address or for this account. Wait a few minutes and "
    "try again; the administrator can clear them sooner."
)


if TYPE_CHECKING:
    # The mixin's host, for the checker: at run time the form class comes after it.
    _LoginFormBase = AuthenticationForm
else:
    _LoginFormBase = object


class ThrottledLoginMixin(_LoginFormBase):
    """Refuse sign-ins past the failure limits (see ``accounts.login_throttle``)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password:
            # No password is checked: the fields' own errors say what is missing.
            return super().clean()
        attempt = login_attempt_begin(
            username=username,
            address=client_address(self.request) if self.request is not None else "",
        )
        if attempt.refused:
            raise forms.ValidationError(REFUSED, code="throttled")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            login_attempt_failed(attempt)
            raise
        login_attempt_succeeded(attempt)
        return cleaned


class OwnerAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    """The review site's sign-in: any active user, throttled."""

    required_css_class = "required"


class OperatorAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The operator admin's sign-in: staff only, throttled."""
