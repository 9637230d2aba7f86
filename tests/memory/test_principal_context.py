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

from common.principal import current_principal_id, principal_activate
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
