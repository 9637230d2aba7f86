"""How the reconsolidation commands name a principal: a username or a public id."""

import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def principal_from_option(value):
    """The principal ``--owner`` names, or a ``CommandError``."""
    User = get_user_model()
    principal = User.objects.filter(username=value).first()
    if principal is None and _is_uuid(value):
        principal = User.objects.filter(public_id=value).first()
    if principal is None:
        raise CommandError(f"no principal {value!r}")
    return principal


def _is_uuid(value):
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
