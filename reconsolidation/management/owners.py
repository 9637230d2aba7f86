"""How the reconsolidation commands name a principal: a username or a public id.

These commands read or act on an owner's memories from the administrator's
shell, so naming the owner records that in the operator trail, which the
owner sees on their account page.
"""

import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction

from accounts.audit import operator_action_record
from accounts.models import OperatorAction, User


def principal_from_option(value: str, *, command: str, changes: bool = False) -> User:
    """The principal ``--owner`` names, or a ``CommandError``; the access is recorded.

    ``command`` names what was run (content-free); ``changes`` says whether it
    may change the owner's memories, or only reads them.
    """
    users = get_user_model().objects
    principal = users.filter(username=value).first()
    if principal is None and _is_uuid(value):
        principal = users.filter(public_id=value).first()
    if principal is None:
        raise CommandError(f"no principal {value!r}")
    with transaction.atomic():
        operator_action_record(
            action=OperatorAction.Action.OWNER_CONTENT_CHANGED
            if changes
            else OperatorAction.Action.OWNER_CONTENT_READ,
            via=OperatorAction.Via.SHELL,
            principal=principal,
            target=command,
        )
    return principal


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
