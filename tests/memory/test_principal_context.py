"""The request middleware sets the principal for the request and clears it after.

The application's own principal (``current_principal_id``) is checked on both
databases; the transaction-local setting row security reads exists only on
PostgreSQL, so its checks are PostgreSQL tests.
"""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.services import api_token_authenticate, api_token_create
from common.principal import current_principal_id, principal_activate, principal_setting
from core.errors import ReverieError
from memory.middleware import PrincipalContextMiddleware


def database_principal():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.principal_id', true)")
        return cursor.fetchone()[0]


def run_request(user, *, activate=None, read_database=False):
    seen = {}

    def view(request):
        if activate is not None:
            principal_activate(activate)
        seen["app"] = current_principal_id()
        if read_database:
            seen["database"] = database_principal()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = user
    PrincipalContextMiddleware(view)(request)
    return seen


def test_a_signed_in_request_runs_as_its_user(owner):
    assert run_request(owner)["app"] == owner.pk
    assert current_principal_id() is None


def test_an_anonymous_request_runs_as_nobody(db):
    assert run_request(AnonymousUser())["app"] is None


def test_a_principal_activated_by_token_authentication_ends_with_the_request(owner):
    assert run_request(AnonymousUser(), activate=owner)["app"] == owner.pk
    assert current_principal_id() is None


@pytest.mark.postgres
def test_on_postgresql_the_database_sees_the_requests_principal(owner):
    assert run_request(owner, read_database=True)["database"] == str(owner.pk)
    assert run_request(AnonymousUser(), read_database=True)["database"] == ""


@pytest.mark.postgres
def test_on_postgresql_an_activated_principal_ends_with_the_request(owner):
    assert run_request(AnonymousUser(), activate=owner, read_database=True)["database"] == str(
        owner.pk
    )
    assert database_principal() == ""


def authenticate_in_request(secret):
    """Authenticate ``secret`` as the API does, inside a request that arrived with no
    principal; what the database then sees as the principal, or the error."""

    def authenticate():
        try:
            api_token_authenticate(secret, principal_setting=principal_setting)
        except ReverieError as error:
            return error.code
        return None

    seen = {}

    def view(request):
        seen["refused"] = authenticate()
        seen["database"] = database_principal()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    PrincipalContextMiddleware(view)(request)
    return seen


@pytest.mark.postgres
def test_on_postgresql_token_authentication_sets_the_principal_it_finds(owner):
    token, secret = api_token_create(principal=owner, name="runtime")

    assert authenticate_in_request(secret) == {"refused": None, "database": str(owner.pk)}
    assert database_principal() == ""


@pytest.mark.postgres
def test_on_postgresql_a_refused_token_sets_no_principal(owner):
    paused, paused_secret = api_token_create(principal=owner, name="paused")
    ApiToken.objects.filter(pk=paused.pk).update(paused_at=timezone.now())
    _, inactive_secret = api_token_create(principal=owner, name="inactive")

    assert authenticate_in_request(paused_secret) == {"refused": "forbidden", "database": ""}
    User.objects.filter(pk=owner.pk).update(is_active=False)
    assert authenticate_in_request(inactive_secret) == {"refused": None, "database": ""}
