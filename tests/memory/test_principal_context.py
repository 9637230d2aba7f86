from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory

from memory.middleware import PrincipalContextMiddleware
from memory.principal import current_principal_id


def database_principal():
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.principal_id', true)")
        return cursor.fetchone()[0]


def run_request(user):
    seen = {}

    def view(request):
        seen["app"] = current_principal_id()
        seen["database"] = database_principal()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = user
    PrincipalContextMiddleware(view)(request)
    return seen


def test_a_signed_in_request_runs_as_its_user(owner, on_postgres):
    seen = run_request(owner)

    assert seen["app"] == owner.pk
    assert seen["database"] == (str(owner.pk) if on_postgres else None)
    assert current_principal_id() is None


def test_an_anonymous_request_runs_as_nobody(db, on_postgres):
    seen = run_request(AnonymousUser())

    assert seen["app"] is None
    assert seen["database"] == ("" if on_postgres else None)


def test_a_principal_activated_by_token_authentication_ends_with_the_request(owner, on_postgres):
    from memory.principal import principal_activate

    def view(request):
        principal_activate(owner)
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    PrincipalContextMiddleware(view)(request)

    assert current_principal_id() is None
    assert database_principal() == ("" if on_postgres else None)
