"""`manage.py sign_in_unlock`: the administrator clears failed sign-ins, and it is recorded."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.audit import operator_actions_for
from accounts.forms import REFUSED
from accounts.models import OperatorAction
from tests.review.browser import PASSWORD

LOGIN = reverse("review:login")
ATTACKER = "198.51.100.7"


@pytest.fixture(autouse=True)
def limits(settings, sign_in_counted_in_database):
    settings.REVERIE_LOGIN = {
        "failures_per_address": 20,
        "failures_per_pair": 10,
        "failures_per_username": 10,
        "backoff_max_seconds": 60,
        "window_seconds": 900,
    }


@pytest.fixture
def account(owner):
    owner.set_password(PASSWORD)
    owner.save()
    return owner


def attempt(client, username, password, address):
    response = client.post(
        LOGIN, {"username": username, "password": password}, HTTP_X_FORWARDED_FOR=address
    )
    if response.status_code == 302:
        client.logout()
        return "signed in"
    return "refused" if REFUSED in response.context["form"].non_field_errors() else "wrong"


def unlock(*args):
    out = io.StringIO()
    call_command("sign_in_unlock", *args, stdout=out)
    return out.getvalue()


def test_unlocking_an_account_clears_its_failures_from_every_address(client, account):
    for address in (ATTACKER, "192.0.2.8"):
        for _ in range(10):
            attempt(client, account.username, "wrong", address)
    assert attempt(client, account.username, PASSWORD, ATTACKER) == "refused"

    unlock(account.username)

    assert attempt(client, account.username, PASSWORD, ATTACKER) == "signed in"
    assert attempt(client, account.username, PASSWORD, "192.0.2.8") == "signed in"


def test_unlocking_an_account_is_recorded_in_its_trail(client, account):
    said = unlock(account.username, "--address", ATTACKER)

    assert said == f"failed sign-ins cleared for {account.username} and from {ATTACKER}\n"
    (action,) = operator_actions_for(principal=account)
    assert action.action == OperatorAction.Action.SIGN_IN_UNLOCKED
    assert action.via == OperatorAction.Via.SHELL and action.actor is None
    assert action.target == str(account.public_id)
    assert action.details == {"address": ATTACKER}


def test_unlocking_an_address_clears_its_failures_for_every_username(client, account):
    for number in range(20):
        attempt(client, f"guess{number}", "wrong", ATTACKER)
    assert attempt(client, account.username, PASSWORD, ATTACKER) == "refused"

    unlock("--address", ATTACKER)

    assert attempt(client, account.username, PASSWORD, ATTACKER) == "signed in"
    action = OperatorAction.objects.get(action=OperatorAction.Action.SIGN_IN_UNLOCKED)
    assert action.principal is None and action.details == {"address": ATTACKER}


def test_unlocking_an_address_leaves_the_others_alone(client, account):
    for address in (ATTACKER, "192.0.2.8"):
        for _ in range(10):
            attempt(client, account.username, "wrong", address)

    unlock("--address", ATTACKER)

    assert attempt(client, account.username, PASSWORD, "192.0.2.8") == "refused"


def test_unlocking_one_account_leaves_the_others_alone(client, account, other_owner):
    for _ in range(10):
        attempt(client, other_owner.username, "wrong", ATTACKER)

    unlock(account.username)

    assert attempt(client, other_owner.username, PASSWORD, ATTACKER) == "refused"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Name a username, an address or both."),
        (("nobody",), "No account named 'nobody'."),
        (("--address", "not-an-address"), "'not-an-address' is not an IP address."),
    ],
)
def test_unlock_says_what_is_wrong_and_records_nothing(db, args, message):
    with pytest.raises(CommandError, match=message):
        unlock(*args)

    assert not OperatorAction.objects.exists()
