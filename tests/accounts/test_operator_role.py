"""The operator role: who may enter /admin/, what no web page offers anyone, and the trail
every operator or administrator action leaves."""

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse
from django_q.models import Schedule

from accounts.models import ApiToken, OperatorAction
from accounts.operators import OPERATOR_GROUP, OPERATOR_PERMISSIONS
from accounts.services import api_token_create
from common.selectors.flags import flag_enabled
from tests.factories import UserFactory


def trail():
    return list(
        OperatorAction.objects.order_by("id").values_list("actor_name", "via", "action", "target")
    )


def test_the_role_has_exactly_its_permissions(db):
    group = Group.objects.get(name=OPERATOR_GROUP)

    granted = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}

    assert granted == set(OPERATOR_PERMISSIONS)


@pytest.mark.parametrize(
    "flags",
    [{"is_staff": True}, {"is_staff": True, "is_superuser": True}, {"is_superuser": True}],
)
def test_only_members_of_the_operator_role_enter_the_admin(client, db, flags):
    # Staff, and even a superuser, outside the role are sent to the login page.
    client.force_login(UserFactory(username="someone", **flags))

    response = client.get(reverse("admin:index"))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_an_operator_enters(client, operator):
    client.force_login(operator)
    assert client.get(reverse("admin:index")).status_code == 200


@pytest.mark.parametrize("superuser", [False, True])
def test_no_page_runs_code_mints_a_secret_sets_a_password_or_adds_a_user(
    client, operator, owner, superuser
):
    # Finding: a Schedule added in django-q2's admin ran any function in the worker;
    # "Issue" and "Rotate" minted tokens that act as the owner; "change password"
    # let the operator sign in as the owner.
    operator.is_superuser = superuser
    operator.save()
    client.force_login(operator)
    token, _ = api_token_create(principal=owner, name="runtime")

    # Some answer 404, some the admin's redirect for an unknown object; none offers a form.
    refused = [
        "/admin/django_q/schedule/add/",
        "/admin/django_q/success/",
        "/admin/django_q/failure/",
        "/admin/django_q/ormq/",
        "/admin/django_q/schedule/1/change/",
        "/admin/accounts/apitoken/add/",
        f"/admin/accounts/user/{owner.pk}/password/",
        "/admin/accounts/user/add/",
        "/admin/auth/group/",
        "/admin/accounts/apitoken/issue/",
    ]
    for url in refused:
        response = client.get(url, follow=True)
        assert response.status_code in (200, 403, 404), url
        body = response.content.decode()
        for field in ("password1", "func", "principal", "username"):
            assert f'name="{field}"' not in body, (url, field)
    posted = client.post(
        "/admin/django_q/schedule/add/",
        {"name": "x", "func": "subprocess.getoutput", "args": "'id'", "schedule_type": "O"},
    )
    assert posted.status_code in (403, 404)
    assert not Schedule.objects.filter(func="subprocess.getoutput").exists()
    issued = client.post(
        "/admin/accounts/apitoken/issue/", {"principal": owner.pk, "name": "mine"}, follow=True
    )
    assert "rvk_" not in issued.content.decode()
    rotated = client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "rotate_selected", "_selected_action": [token.pk]},
    )
    assert "rvk_" not in rotated.content.decode()
    assert ApiToken.objects.count() == 1
    client.post(
        f"/admin/accounts/user/{owner.pk}/password/",
        {"password1": "taken-over-123", "password2": "taken-over-123"},
    )
    owner.refresh_from_db()
    assert not owner.check_password("taken-over-123")
    with pytest.raises(NoReverseMatch):
        reverse("admin:accounts_apitoken_issue")


def test_the_task_page_lists_functions_and_states_only(client, operator):
    client.force_login(operator)

    response = client.get(reverse("admin:django_q_task_changelist"))

    assert response.status_code == 200


def test_an_operator_revokes_a_token_and_the_trail_says_so(client, operator, owner):
    token, _ = api_token_create(principal=owner, name="runtime")
    client.force_login(operator)

    client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke_selected", "_selected_action": [token.pk]},
    )

    token.refresh_from_db()
    assert token.revoked_at is not None
    assert trail() == [("operator", "admin", "token_revoked", str(token.public_id))]
    assert OperatorAction.objects.get().principal == owner


def test_an_operator_deactivates_an_account_and_the_trail_says_so(client, operator, owner):
    client.force_login(operator)
    url = reverse("admin:accounts_user_change", args=[owner.pk])

    response = client.post(url, {"is_active": ""})

    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.is_active is False
    assert trail() == [("operator", "admin", "principal_deactivated", str(owner.public_id))]


def test_an_operator_cannot_make_anyone_staff_or_superuser(client, operator, owner):
    client.force_login(operator)
    url = reverse("admin:accounts_user_change", args=[owner.pk])

    client.post(url, {"is_active": "on", "is_staff": "on", "is_superuser": "on"})

    owner.refresh_from_db()
    assert (owner.is_staff, owner.is_superuser) == (False, False)


def test_a_flag_toggle_is_in_the_trail(client, operator):
    client.force_login(operator)

    client.post(
        reverse("admin:common_flag_toggle", args=["maintenance_kill_switch"]), {"enabled": "on"}
    )

    assert flag_enabled("maintenance_kill_switch") is True
    assert trail() == [("operator", "admin", "flag_set", "maintenance_kill_switch")]
    assert OperatorAction.objects.get().details == {"enabled": True}


def test_the_administrators_token_commands_are_in_the_owners_trail(owner):
    out = StringIO()
    call_command("api_tokens", "create", owner.username, "--name", "cli", stdout=out)
    token_id = out.getvalue().split()[1]
    call_command("api_tokens", "revoke", token_id, stdout=StringIO())

    assert trail() == [
        ("administrator (shell)", "shell", "token_issued", token_id),
        ("administrator (shell)", "shell", "token_revoked", token_id),
    ]
    assert set(OperatorAction.objects.values_list("principal", flat=True)) == {owner.pk}


def test_the_operators_command_grants_and_withdraws_the_role(client, owner):
    call_command("operators", "add", owner.username, stdout=StringIO())
    client.force_login(owner)
    assert client.get(reverse("admin:index")).status_code == 200

    call_command("operators", "remove", owner.username, stdout=StringIO())
    assert client.get(reverse("admin:index")).status_code == 302


def test_shell_commands_naming_an_owner_are_in_that_owners_trail(owner):
    call_command("operations", "--owner", owner.username, stdout=StringIO())
    call_command("reconsolidate", "--owner", owner.username, "--dry-run", stdout=StringIO())

    assert trail() == [
        ("administrator (shell)", "shell", "owner_content_read", "operations"),
        ("administrator (shell)", "shell", "owner_content_read", "reconsolidate --dry-run"),
    ]
    assert set(OperatorAction.objects.values_list("principal", flat=True)) == {owner.pk}
