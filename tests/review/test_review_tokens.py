"""Owners create, list and revoke their own API tokens; they see what operators did."""

import re

from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_revoke
from tests.conftest import PROXIED_HTTPS

TOKENS = reverse("review:account_tokens")
REVOKE = reverse("review:account_token_revoke")


def works(secret):
    api = APIClient(**PROXIED_HTTPS)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api.get("/api/v1/memories").status_code == 200


def test_an_owner_creates_a_token_and_sees_its_secret_once(owner_client, owner):
    created = owner_client.post(TOKENS, {"name": "desktop assistant"})

    secret = re.search(r'<code id="new-secret">(rvk_[^<]+)</code>', created.content.decode())
    assert secret is not None and works(secret.group(1))
    token = ApiToken.objects.get(principal=owner)
    assert (token.name, token.created_by) == ("desktop assistant", None)
    listed = owner_client.get(TOKENS).content.decode()
    assert "desktop assistant" in listed and secret.group(1) not in listed


def test_an_owner_revokes_their_token_and_it_stops_working(owner_client, owner):
    token, secret = api_token_create(principal=owner, name="phone")

    response = owner_client.post(REVOKE, {"token": token.public_id}, follow=True)

    assert "stopped working at once" in response.content.decode()
    assert not works(secret)


def test_another_owners_tokens_are_neither_listed_nor_revoked(owner_client, other_owner, theirs):
    token, secret = api_token_create(principal=other_owner, name="their laptop")

    listed = owner_client.get(TOKENS).content.decode()
    response = owner_client.post(REVOKE, {"token": token.public_id}, follow=True)

    assert "their laptop" not in listed
    assert "Nothing was revoked: No such token." in response.content.decode()
    assert works(secret)


def test_a_malformed_revocation_changes_nothing(owner_client, owner):
    token, secret = api_token_create(principal=owner, name="phone")

    response = owner_client.post(REVOKE, {"token": "nope"}, follow=True)

    assert "the form did not say which token" in response.content.decode()
    assert works(secret)


def test_the_account_page_shows_what_operators_did(owner_client, owner, operator):
    token, _ = api_token_create(principal=owner, name="phone")
    api_token_revoke(token_id=token.public_id, actor=operator, via="admin")

    page = owner_client.get(reverse("review:account")).content.decode()

    assert "revoked an API token" in page and "operator admin" in page
    assert "operator" in page
