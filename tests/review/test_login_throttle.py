"""Sign-in throttling on the review site and the operator admin."""

import pytest
from django.urls import reverse

from tests.review.browser import PASSWORD

SITES = [reverse("review:login"), reverse("admin:login")]


@pytest.fixture
def limits(settings):
    settings.REVERIE_LOGIN = {
        "failures_per_username": 10,
        "failures_per_address": 100,
        "window_seconds": 900,
    }
    return settings.REVERIE_LOGIN


def sign_in(client, url, username, password):
    response = client.post(url, {"username": username, "password": password})
    return response.status_code == 302, response


@pytest.fixture
def accounts(owner, operator):
    for user in (owner, operator):
        user.set_password(PASSWORD)
        user.save()
    return {SITES[0]: owner.username, SITES[1]: operator.username}


@pytest.mark.parametrize("url", SITES)
def test_after_too_many_failures_even_the_right_password_is_refused(client, accounts, limits, url):
    username = accounts[url]
    for _ in range(25):
        assert not sign_in(client, url, username, "wrong")[0]

    signed_in, response = sign_in(client, url, username, PASSWORD)

    assert not signed_in
    assert "Too many failed sign-ins" in response.content.decode()


@pytest.mark.parametrize("url", SITES)
def test_a_few_failures_do_not_lock_anyone_out_and_success_clears_them(
    client, accounts, limits, url
):
    username = accounts[url]
    for _ in range(9):
        sign_in(client, url, username, "wrong")
    assert sign_in(client, url, username, PASSWORD)[0]
    client.logout()
    for _ in range(9):
        sign_in(client, url, username, "wrong")
    assert sign_in(client, url, username, PASSWORD)[0]


def test_one_address_trying_many_usernames_is_stopped(client, accounts, limits):
    limits["failures_per_address"] = 20
    for number in range(20):
        sign_in(client, SITES[0], f"guess{number}", "wrong")

    assert not sign_in(client, SITES[0], accounts[SITES[0]], PASSWORD)[0]
