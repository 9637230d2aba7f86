"""The operator role: a group with exactly the permissions operators need.

Operators run the service, not the memories: they read principals' content-free
fields and activate or deactivate accounts, revoke tokens, set flags and kill
switches, read the content-free overview, certificates, the operator trail and
background task health. Only members of this group may enter ``/admin/``
(see ``accounts.admin_site``); being a superuser is not enough. The machine's
administrator works from the shell and is trusted with everything.
"""

from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .models import User

OPERATOR_GROUP = "operator"
OPERATOR_PERMISSIONS = (
    ("accounts", "view_user"),
    ("accounts", "change_user"),
    ("accounts", "view_apitoken"),
    ("accounts", "change_apitoken"),
    ("accounts", "view_operatoraction"),
    ("common", "view_flag"),
    ("common", "change_flag"),
    ("memory", "view_beliefstatuscount"),
    ("evaluation", "view_certificate"),
    ("django_q", "view_task"),
    ("django_q", "view_schedule"),
)


def operator_role_sync() -> Group:
    """Create the operator group, or bring its permissions back to exactly the role's."""
    group, _ = Group.objects.get_or_create(name=OPERATOR_GROUP)
    wanted = [
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
        for app_label, codename in OPERATOR_PERMISSIONS
    ]
    group.permissions.set(wanted)
    return group


def operator_of(request: HttpRequest) -> User:
    """The account an admin request is made by. The admin lets only signed-in operators
    through its views; a request without an account is refused all the same."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


def is_operator(user: User | AnonymousUser) -> bool:
    return user.is_active and user.is_staff and user.groups.filter(name=OPERATOR_GROUP).exists()


def operator_grant(*, user: User) -> User:
    """Make ``user`` an operator (the administrator's ``manage.py operators add``)."""
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(operator_role_sync())
    return user


def operator_revoke(*, user: User) -> User:
    user.groups.remove(*Group.objects.filter(name=OPERATOR_GROUP))
    user.is_staff = False
    user.save(update_fields=["is_staff"])
    return user
