import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import api_token_create, token_digest
from core.compiled import CompiledLookup
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def token_by_digest():
    return CompiledLookup(
        lambda digest: ApiToken.objects.select_related("principal").filter(digest=digest),
        values=1,
    )


def fields_of(instance):
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def test_it_builds_what_the_orm_builds_relations_included():
    owner = UserFactory()
    token, secret = api_token_create(principal=owner, name="runtime")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now() - timedelta(days=1))
    expected = ApiToken.objects.select_related("principal").get(pk=token.pk)

    found = token_by_digest().first(token_digest(secret))

    assert fields_of(found) == fields_of(expected)
    # Datetimes come back as the ORM gives them (aware, on SQLite too).
    assert timezone.is_aware(found.last_used_at)
    with CaptureQueriesContext(connection) as queries:
        assert fields_of(found.principal) == fields_of(expected.principal)
    assert not queries.captured_queries


def test_each_call_runs_with_its_own_values():
    lookup = token_by_digest()
    first, first_secret = api_token_create(principal=UserFactory(), name="one")
    second, second_secret = api_token_create(principal=UserFactory(), name="two")

    assert lookup.first(token_digest(first_secret)).pk == first.pk
    assert lookup.first(token_digest(second_secret)).pk == second.pk
    assert lookup.first(token_digest("rvk_nothing")) is None


def test_it_compiles_once_and_then_runs_one_statement():
    built = []

    def build(digest):
        built.append(digest)
        return ApiToken.objects.filter(digest=digest)

    lookup = CompiledLookup(build, values=1)
    _, secret = api_token_create(principal=UserFactory(), name="runtime")
    lookup.first(token_digest(secret))

    with CaptureQueriesContext(connection) as queries:
        assert lookup.first(token_digest(secret)) is not None
    assert len(built) == 1
    assert len(queries.captured_queries) == 1


def test_another_thread_compiles_its_own():
    # Django's connections are per thread: a statement compiled for one is never
    # run through another's.
    built = []

    def build(digest):
        built.append(threading.get_ident())
        return ApiToken.objects.filter(digest=digest)

    lookup = CompiledLookup(build, values=1)
    lookup._statement("default")

    def compile_in_thread():
        try:
            lookup._statement("default")
        finally:
            connection.close()

    thread = threading.Thread(target=compile_in_thread)
    thread.start()
    thread.join()

    assert len(set(built)) == 2


def test_a_value_must_appear_once_and_be_passed():
    twice = CompiledLookup(
        lambda digest: ApiToken.objects.filter(digest=digest, name=digest), values=1
    )
    with pytest.raises(ValueError):
        twice.first("x")
    with pytest.raises(TypeError):
        token_by_digest().first()


def test_expressions_in_the_queryset_are_kept():
    owner = UserFactory()
    token, secret = api_token_create(principal=owner, name="runtime")
    lookup = CompiledLookup(
        lambda digest: ApiToken.objects.filter(digest=digest, principal_id=F("principal_id")),
        values=1,
    )

    assert lookup.first(token_digest(secret)).pk == token.pk
