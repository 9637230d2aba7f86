"""Owners create, list, pause, resume and revoke their own API tokens; they see what operators
did."""

import re

from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken, OperatorAction
from accounts.services import api_token_create, api_token_revoke
from tests.conftest import PROXIED_HTTPS

TOKENS = reverse("review:account_tokens")
REVOKE = reverse("review:account_token_revoke")
PAUSE = reverse("review:account_token_pause")
RESUME = reverse("review:account_token_resume")


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


def test_an_owner_pauses_a_token_and_resumes_it_from_the_review_site(owner_client, owner):
    token, secret = api_token_create(principal=owner, name="phone")

    paused = owner_client.post(PAUSE, {"token": token.public_id}, follow=True).content.decode()
    refused = works(secret)
    resumed = owner_client.post(RESUME, {"token": token.public_id}, follow=True).content.decode()

    assert "The token is paused" in paused and 'value="Resume"' in paused
    assert not refused and works(secret)
    assert "The token is resumed" in resumed and 'value="Pause"' in resumed
    trail = OperatorAction.objects.filter(target=str(token.public_id)).order_by("id")
    assert [(a.action, a.via, a.actor_id) for a in trail] == [
        ("token_paused", "review", owner.pk),
        ("token_resumed", "review", owner.pk),
    ]


def test_another_owners_token_is_not_paused(owner_client, other_owner, theirs):
    token, secret = api_token_create(principal=other_owner, name="their laptop")

    response = owner_client.post(PAUSE, {"token": token.public_id}, follow=True)

    assert "Nothing was paused: No such token." in response.content.decode()
    assert works(secret)


def test_pausing_needs_a_post_with_the_csrf_token(owner, owner_client):
    from django.test import Client

    token, secret = api_token_create(principal=owner, name="phone")
    strict = Client(enforce_csrf_checks=True, **PROXIED_HTTPS)
    strict.force_login(owner)

    assert owner_client.get(PAUSE).status_code == 405
    assert strict.post(PAUSE, {"token": token.public_id}).status_code == 403
    assert works(secret)
