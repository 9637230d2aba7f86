"""Where signing in lands: where ``next`` says if it is on the site, the site's home page
otherwise."""

import pytest
from django.urls import reverse

from tests.review.browser import PASSWORD

SITES = {
    "review": (reverse("review:login"), reverse("review:index")),
    "admin": (reverse("admin:login"), reverse("admin:index")),
}


@pytest.fixture
def accounts(owner, operator):
    for user in (owner, operator):
        user.set_password(PASSWORD)
        user.save()
    return {"review": owner.username, "admin": operator.username}


def sign_in(client, site, accounts, **extra):
    login, _ = SITES[site]
    data = {"username": accounts[site], "password": PASSWORD, **extra}
    return client.post(login, data)


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize(
    "next_url", ["https://evil.example/steal", "//evil.example/", "http://evil.example"]
)
def test_an_off_site_next_lands_on_the_site_home_page(client, accounts, site, next_url):
    response = sign_in(client, site, accounts, next=next_url)

    assert response.status_code == 302
    assert response["Location"] == SITES[site][1]


@pytest.mark.parametrize("site", SITES)
def test_without_a_next_signing_in_lands_on_the_site_home_page(client, accounts, site):
    response = sign_in(client, site, accounts)

    assert response.status_code == 302
    assert response["Location"] == SITES[site][1]


def test_a_next_on_the_site_is_followed(client, accounts):
    queue = reverse("review:review_queue")

    response = sign_in(client, "review", accounts, next=queue)

    assert response["Location"] == queue


@pytest.mark.parametrize("site", SITES)
def test_the_sign_in_page_sends_someone_signed_in_home(client, accounts, site):
    sign_in(client, site, accounts)

    response = client.get(SITES[site][0])

    assert response.status_code == 302
    assert response["Location"] == SITES[site][1]


@pytest.mark.parametrize("site", SITES)
def test_the_sign_in_form_carries_the_home_page_when_no_next_is_given(client, db, site):
    response = client.get(SITES[site][0])

    assert response.status_code == 200
    assert f'name="next" value="{SITES[site][1]}"' in response.content.decode()
