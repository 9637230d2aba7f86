"""Owners are created, and get back in, through one-time links from the administrator's shell."""

import re
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management import CommandError, call_command

from accounts.models import OperatorAction

PASSWORD = "a long walk by the river"


def link_path(output):
    return re.search(r"https?://[^/]+(/review/password/\S+/)", output).group(1)


def principals(*args):
    out = StringIO()
    call_command("principals", *args, stdout=out)
    return out.getvalue()


def set_password(client, path, password=PASSWORD):
    """Open the link and post the form, as a browser would (the view swaps the token into
    the session and redirects first)."""
    form = client.get(path, follow=True)
    if "password-form" not in form.content.decode():
        return form
    return client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else path,
        {"new_password1": password, "new_password2": password},
        follow=True,
    )


def test_a_new_owner_sets_their_own_password_and_signs_in(client, db):
    output = principals("create", "maria")

    response = set_password(client, link_path(output))

    maria = get_user_model().objects.get(username="maria")
    assert maria.check_password(PASSWORD) and maria.is_active and not maria.is_staff
    assert "Your password is set. Sign in with it." in response.content.decode()
    assert client.login(username="maria", password=PASSWORD)
    assert OperatorAction.objects.filter(principal=maria, action="password_link_issued").exists()


def test_a_link_works_once(client, db):
    path = link_path(principals("create", "maria"))
    set_password(client, path)

    again = set_password(client, path, "another long password 42")

    assert "expired or was used already" in again.content.decode()
    assert get_user_model().objects.get(username="maria").check_password(PASSWORD)


def test_a_link_expires(client, db, monkeypatch, settings):
    path = link_path(principals("create", "maria"))
    later = datetime.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    monkeypatch.setattr(default_token_generator, "_now", lambda: later)

    response = client.get(path, follow=True)

    assert "expired or was used already" in response.content.decode()


def test_a_forgotten_password_gets_a_new_link(client, owner):
    path = link_path(principals("password-link", owner.username))

    set_password(client, path)

    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_the_command_refuses_duplicates_and_unknown_names(db):
    principals("create", "maria")
    with pytest.raises(CommandError, match="exists"):
        principals("create", "maria")
    with pytest.raises(CommandError, match="No account"):
        principals("password-link", "nobody")
    with pytest.raises(CommandError, match="not valid"):
        principals("create", "no spaces allowed")
