"""Owners set their own passwords through one-time links the administrator makes at the shell.

No operator ever sets or learns an owner's password. The machine's
administrator creates an account (or answers a forgotten password) with
``manage.py principals``, which prints a link; whoever opens it sets the
password. The link is Django's password-reset token: it expires after
``PASSWORD_RESET_TIMEOUT`` and stops working once a password is set, because
the token is derived from the password itself. No e-mail is sent.
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import Field
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from core.errors import conflict, validation_error

from .audit import operator_action_record
from .models import OperatorAction, User

# The page a link opens is on the owner review site, which is built on this app: the site
# registers it (``register_password_page``) instead of this app naming the site's routes.
_password_page: list[Callable[..., str]] = []


def register_password_page(path: Callable[..., str]) -> None:
    """Make ``path(*, uidb64, token)``, the path of the page that sets a password from a
    one-time link, the one the links lead to (the last registered wins)."""
    _password_page[:] = [path]


def password_link_issue(*, principal: User) -> str:
    """A one-time link for ``principal`` to set a password; recorded in their trail."""
    if not principal.is_active:
        raise conflict("The account is not active.", field="principal")
    with transaction.atomic():
        operator_action_record(
            action=OperatorAction.Action.PASSWORD_LINK_ISSUED,
            via=OperatorAction.Via.SHELL,
            principal=principal,
            target=principal.public_id,
        )
    (page,) = _password_page
    path = page(
        uidb64=urlsafe_base64_encode(force_bytes(principal.pk)),
        token=default_token_generator.make_token(principal),
    )
    return settings.REVERIE_PUBLIC_URL.rstrip("/") + path


def principal_create(*, username: str) -> tuple[User, str]:
    """A new owner account with no usable password, and the link to set one."""
    field = User._meta.get_field(User.USERNAME_FIELD)
    assert isinstance(field, Field)  # the user name is a column of the user's own table
    try:
        username = field.clean(username, None)
    except Exception as error:  # Django's ValidationError, in its own words
        raise validation_error(
            "That username is not valid: letters, digits and @.+-_ only, 150 at most.",
            field="username",
        ) from error
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise conflict(f"An account named {username!r} exists.", field="username")
        principal = User.objects.create_user(username=username, password=None)
        return principal, password_link_issue(principal=principal)
