"""Sign-in throttling on the review site and the operator admin.

Requests come through the TLS proxy on 127.0.0.1, which names each client in
X-Forwarded-For, as in production.
"""

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from accounts.forms import REFUSED
from tests.review.browser import PASSWORD

SITES = [reverse("review:login"), reverse("admin:login")]
ATTACKER = "198.51.100.7"
OWNER_AT_HOME = "203.0.113.5"


@pytest.fixture(autouse=True)
def limits(settings, sign_in_counted_in_database):
    settings.REVERIE_LOGIN = {
        "failures_per_address": 50,
        "failures_per_pair": 10,
        "failures_per_username": 10,
        "backoff_max_seconds": 60,
        "window_seconds": 900,
    }
    return settings.REVERIE_LOGIN


@pytest.fixture
def accounts(owner, operator):
    for user in (owner, operator):
        user.set_password(PASSWORD)
        user.save()
    return {SITES[0]: owner.username, SITES[1]: operator.username}


def sign_in(client, url, username, password, address):
    response = client.post(
        url, {"username": username, "password": password}, HTTP_X_FORWARDED_FOR=address
    )
    return response.status_code == 302, response


def refused(response):
    return REFUSED in response.context["form"].non_field_errors()


@pytest.mark.parametrize("url", SITES)
def test_failures_from_another_address_never_refuse_the_right_password_from_a_clean_one(
    client, accounts, url
):
    username = accounts[url]
    for _ in range(25):
        assert not sign_in(client, url, username, "wrong", ATTACKER)[0]

    assert sign_in(client, url, username, PASSWORD, OWNER_AT_HOME)[0]


@pytest.mark.parametrize("url", SITES)
def test_failures_spread_over_many_addresses_never_refuse_a_clean_one(client, accounts, url):
    username = accounts[url]
    for number in range(40):
        sign_in(client, url, username, "wrong", f"198.51.100.{number}")

    assert sign_in(client, url, username, PASSWORD, OWNER_AT_HOME)[0]


@pytest.mark.parametrize("url", SITES)
def test_the_pair_limit_refuses_that_username_from_that_address_only(client, accounts, url):
    username = accounts[url]
    for _ in range(10):
        _, response = sign_in(client, url, username, "wrong", ATTACKER)
        assert not refused(response)

    signed_in, response = sign_in(client, url, username, PASSWORD, ATTACKER)

    assert not signed_in and refused(response)
    assert not refused(sign_in(client, url, "someone-else", "wrong", ATTACKER)[1])


def test_a_refusal_reads_the_same_whether_the_password_was_right_or_not(client, accounts):
    username = accounts[SITES[0]]
    for _ in range(10):
        sign_in(client, SITES[0], username, "wrong", ATTACKER)

    _, right = sign_in(client, SITES[0], username, PASSWORD, ATTACKER)
    _, wrong = sign_in(client, SITES[0], username, "wrong again", ATTACKER)

    assert right.status_code == wrong.status_code == 200
    assert right.context["form"].errors == wrong.context["form"].errors == {"__all__": [REFUSED]}


def test_a_refused_attempt_is_not_counted(client, accounts, limits):
    username = accounts[SITES[0]]
    limits["failures_per_address"] = 12
    for _ in range(10):
        sign_in(client, SITES[0], username, "wrong", ATTACKER)
    for _ in range(5):
        assert refused(sign_in(client, SITES[0], username, "wrong", ATTACKER)[1])

    # Two more failures fit under the address's limit: the refusals took none of it.
    for _ in range(2):
        assert not refused(sign_in(client, SITES[0], "someone-else", "wrong", ATTACKER)[1])
    assert refused(sign_in(client, SITES[0], "a-third", "wrong", ATTACKER)[1])


@pytest.mark.parametrize("url", SITES)
def test_one_address_trying_many_usernames_is_stopped(client, accounts, limits, url):
    limits["failures_per_address"] = 20
    for number in range(20):
        sign_in(client, url, f"guess{number}", "wrong", ATTACKER)

    signed_in, response = sign_in(client, url, accounts[url], PASSWORD, ATTACKER)

    assert not signed_in and refused(response)
    assert sign_in(client, url, accounts[url], PASSWORD, OWNER_AT_HOME)[0]


def test_a_few_failures_do_not_lock_anyone_out_and_success_clears_the_pair(client, accounts):
    username = accounts[SITES[0]]
    for _ in range(9):
        sign_in(client, SITES[0], username, "wrong", OWNER_AT_HOME)
    assert sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)[0]
    client.logout()
    for _ in range(9):
        sign_in(client, SITES[0], username, "wrong", OWNER_AT_HOME)

    assert sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)[0]


def test_during_a_username_backoff_an_address_with_failures_waits_its_turn(
    client, accounts, limits
):
    username = accounts[SITES[0]]
    # Expiries are stored to the second: a delay of one second ends within two.
    limits["backoff_max_seconds"] = 1
    # Ten addresses fail once each: the username is in backoff.
    for number in range(10):
        sign_in(client, SITES[0], username, "wrong", f"198.51.100.{number}")
    # The owner mistyped once from home, which is an address with a failure now.
    sign_in(client, SITES[0], username, "wrong", OWNER_AT_HOME)

    signed_in, response = sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)
    assert not signed_in and refused(response)
    # Meanwhile an address with no failures is never held back.
    assert sign_in(client, SITES[0], username, PASSWORD, "192.0.2.44")[0]
    client.logout()

    time.sleep(2.1)
    assert sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)[0]


def test_the_backoff_lets_one_attempt_through_per_delay(client, accounts):
    username = accounts[SITES[0]]
    for number in range(10):
        sign_in(client, SITES[0], username, "wrong", f"198.51.100.{number}")
    for number in range(10):
        sign_in(client, SITES[0], "another", "wrong", f"198.51.100.{number}")
    # The tenth failure's delay (one second, stored to the second) is over.
    time.sleep(2.1)

    # Each of the ten failed already: the first to come back claims the next delay.
    outcomes = [
        refused(sign_in(client, SITES[0], username, "wrong", f"198.51.100.{number}")[1])
        for number in range(10)
    ]

    assert outcomes == [False] + [True] * 9


def test_a_sign_in_leaves_its_address_without_a_failure_of_its_own(client, accounts):
    username = accounts[SITES[0]]
    assert sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)[0]
    client.logout()
    # Then the username is in backoff, with a delay of half a minute running.
    for number in range(15):
        sign_in(client, SITES[0], username, "wrong", f"198.51.100.{number}")

    # The first sign-in was given back: the address is as clean as before it.
    assert sign_in(client, SITES[0], username, PASSWORD, OWNER_AT_HOME)[0]


def test_an_address_given_by_a_client_directly_is_not_believed(client, accounts):
    username = accounts[SITES[0]]
    for number in range(12):
        # Straight from the attacker's machine, not through the proxy.
        response = client.post(
            SITES[0],
            {"username": username, "password": "wrong"},
            REMOTE_ADDR=ATTACKER,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{number}",
        )

    assert refused(response)


def test_a_sign_in_without_a_password_clears_nothing(client, accounts):
    username = accounts[SITES[0]]
    for _ in range(10):
        sign_in(client, SITES[0], username, "wrong", ATTACKER)

    response = client.post(SITES[0], {"username": username}, HTTP_X_FORWARDED_FOR=ATTACKER)

    assert "password" in response.context["form"].errors
    assert refused(sign_in(client, SITES[0], username, PASSWORD, ATTACKER)[1])


def test_a_limit_below_one_stops_the_start():
    code = "import django; django.setup()"
    environment = {
        **{key: value for key, value in os.environ.items() if key != "DEBUG"},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "k" * 60,
        "REVERIE_ENV_FILE": "",
        "REVERIE_LOGIN_FAILURES_PER_PAIR": "0",
    }
    started = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert started.returncode != 0
    assert "REVERIE_LOGIN_FAILURES_PER_PAIR must be at least 1." in started.stderr
