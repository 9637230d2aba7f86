from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_rotate, token_digest
from tests.conftest import PROXIED_HTTPS


def works(secret):
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client.get("/api/v1/sessions").status_code == 200


def test_only_a_digest_of_the_secret_is_stored(owner):
    token, secret = api_token_create(principal=owner, name="runtime")

    stored = ApiToken.objects.get(pk=token.pk)
    assert stored.digest == token_digest(secret)
    assert secret not in {getattr(stored, f.attname) for f in ApiToken._meta.concrete_fields}


def test_rotating_replaces_the_token(owner):
    old, old_secret = api_token_create(principal=owner, name="runtime")

    new, new_secret = api_token_rotate(token_id=old.public_id)

    assert new.name == "runtime" and new.principal == owner
    assert not works(old_secret) and works(new_secret)


def test_the_command_creates_lists_rotates_and_revokes(owner):
    out = StringIO()
    call_command("api_tokens", "create", "owner", "--name", "assistant", stdout=out)
    token_id, secret = out.getvalue().split()[1], out.getvalue().split()[-1]
    assert works(secret)

    out = StringIO()
    call_command("api_tokens", "list", stdout=out)
    assert "assistant" in out.getvalue() and secret not in out.getvalue()

    out = StringIO()
    call_command("api_tokens", "rotate", token_id, stdout=out)
    rotated = out.getvalue().split()[-1]
    assert works(rotated) and not works(secret)

    new_id = out.getvalue().split()[1]
    call_command("api_tokens", "revoke", new_id, stdout=StringIO())
    assert not works(rotated)


def test_the_command_reports_unknown_principals_and_tokens(db):
    with pytest.raises(CommandError, match="No principal"):
        call_command("api_tokens", "create", "nobody", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("api_tokens", "revoke", "not-a-uuid", stdout=StringIO())
    with pytest.raises(CommandError, match="No such token"):
        call_command(
            "api_tokens", "revoke", "00000000-0000-4000-8000-000000000000", stdout=StringIO()
        )


def test_the_operator_admin_lists_tokens_without_their_secrets(client, operator, owner):
    token, secret = api_token_create(principal=owner, name="runtime")
    client.force_login(operator)

    listing = client.get(reverse("admin:accounts_apitoken_changelist")).content.decode()

    assert secret not in listing and token.prefix in listing


def test_an_operator_revokes_tokens_in_the_admin(client, operator, owner):
    token, secret = api_token_create(principal=owner, name="runtime")
    client.force_login(operator)

    client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke_selected", "_selected_action": [token.pk]},
    )

    assert not works(secret)
