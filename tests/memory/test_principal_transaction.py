"""principal_transaction: the transaction itself outside any, a savepoint inside one."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from common.principal import principal_context, principal_transaction
from memory.models import Session
from tests.factories import UserFactory


class _Failed(Exception):
    pass


def _session(owner, external_id=None):
    return Session.objects.create(
        owner=owner, external_id=external_id, last_activity_at=timezone.now()
    )


def _savepoints(queries):
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SAVEPOINT")]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_block_is_the_transaction_with_no_savepoint():
    owner = UserFactory()
    with CaptureQueriesContext(connection) as queries, principal_transaction(owner):
        assert connection.in_atomic_block
        _session(owner)
    assert not connection.in_atomic_block
    assert _savepoints(queries) == []
    with principal_context(owner):
        assert Session.objects.filter(owner=owner).count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_exception_leaves_nothing_of_the_block():
    owner = UserFactory()
    with pytest.raises(_Failed), principal_transaction(owner):
        _session(owner)
        raise _Failed
    with principal_context(owner):
        assert not Session.objects.filter(owner=owner).exists()


@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_a_caught_exception_undoes_only_the_block():
    owner = UserFactory()
    with transaction.atomic():
        with principal_context(owner):
            _session(owner, "kept")
        with pytest.raises(_Failed), principal_transaction(owner):
            _session(owner, "undone")
            raise _Failed
        # The enclosing transaction is still usable.
        with principal_context(owner):
            _session(owner, "after")
    with principal_context(owner):
        kept = set(Session.objects.filter(owner=owner).values_list("external_id", flat=True))
    assert kept == {"kept", "after"}
