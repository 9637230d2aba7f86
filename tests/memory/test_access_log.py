"""Access records live and die with their owner: kept for the retention and then purged,
erased with the account, exported with it, invisible to everyone else; a write that fails
is counted for operators."""

import re
from datetime import date, timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.services import api_token_create
from common.principal import principal_context, principal_transaction
from common.schedules import declared_schedules
from memory.models import AccessRecord, AccessRecordFailure
from memory.selectors.access import access_record_list, memory_readers
from memory.services import batches
from memory.services.access_log import (
    access_record,
    access_record_failure_count,
    access_record_purge_sweep,
)
from memory.services.account import account_export, account_purge

from .helpers import conversation, remember


@pytest.fixture
def token(owner):
    return api_token_create(principal=owner, name="desktop")[0]


def read(owner, token, *, memories=(), messages=(), at=None):
    record_id = access_record(
        principal=owner,
        token=token,
        route="api:memories",
        request_id="r1",
        memories=[m.public_id for m in memories],
        messages=[m.public_id for m in messages],
    )
    with principal_context(owner):
        if at is not None:
            AccessRecord.objects.filter(pk=record_id).update(created_at=at)
        return AccessRecord.objects.get(pk=record_id)


def count(model, owner):
    with principal_context(owner):
        return model.objects.filter(owner=owner).count()


def test_the_purge_removes_records_past_retention_and_nothing_newer(
    owner, other_owner, token, settings
):
    settings.REVERIE_ACCESS = {**settings.REVERIE_ACCESS, "retention_days": 90}
    now = timezone.now()
    kayak = remember(owner, "User owns a red kayak.")
    old = read(owner, token, memories=[kayak], at=now - timedelta(days=91))
    kept = read(owner, token, memories=[kayak], at=now - timedelta(days=89))
    theirs = api_token_create(principal=other_owner, name="theirs")[0]
    their_old = read(other_owner, theirs, at=now - timedelta(days=200))

    assert access_record_purge_sweep(now=now) == 2

    with principal_context(owner):
        assert list(AccessRecord.objects.values_list("pk", flat=True)) == [kept.pk]
    assert count(AccessRecord, other_owner) == 0
    assert {old.pk, their_old.pk}.isdisjoint(AccessRecord.objects.values_list("pk", flat=True))
    assert access_record_purge_sweep(now=now) == 0


def test_the_purge_deletes_an_owners_records_a_batch_at_a_time(owner, token, settings, monkeypatch):
    # As an erasure does: one statement for every record could outgrow PostgreSQL's
    # 65,535 parameters.
    monkeypatch.setattr(batches, "PURGE_BATCH", 2)
    settings.REVERIE_ACCESS = {**settings.REVERIE_ACCESS, "retention_days": 90}
    now = timezone.now()
    for _ in range(5):
        read(owner, token, at=now - timedelta(days=91))
    kept = read(owner, token, at=now - timedelta(days=1))
    statements = []
    original = QuerySet.delete

    def counting_delete(queryset):
        statements.append(queryset.model._meta.model_name)
        return original(queryset)

    monkeypatch.setattr(QuerySet, "delete", counting_delete)

    assert access_record_purge_sweep(now=now) == 5
    assert statements == ["accessrecord"] * 3  # 2 + 2 + 1
    with principal_context(owner):
        assert list(AccessRecord.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_purge_runs_on_a_schedule():
    (spec,) = [s for s in declared_schedules() if s["name"] == "memory.access_purge"]

    assert spec["func"] == "memory.tasks.access_record_purge_task"
    assert spec["repeats"] == -1


def test_erasing_the_account_erases_its_access_records(owner, token):
    _, (message,) = conversation(owner, "I bought a red kayak.")
    read(owner, token, memories=[remember(owner, "User owns a red kayak.")], messages=[message])

    owner_id = owner.pk

    erased = account_purge(principal=owner)

    assert erased["accessrecord"] == 1
    # Looked for as the erased owner, whom row security would let see them.
    owner.pk = owner_id
    assert count(AccessRecord, owner) == 0


def test_the_export_holds_the_access_records_oldest_first(owner, token):
    kayak = remember(owner, "User owns a red kayak.")
    first = read(owner, token, memories=[kayak])
    second = read(owner, token)

    export = account_export(principal=owner)

    assert [entry["id"] for entry in export["access"]] == [
        str(first.public_id),
        str(second.public_id),
    ]
    assert export["access"][0] == {
        "id": str(first.public_id),
        "token_id": str(token.public_id),
        "token_name": "desktop",
        "route": "api:memories",
        "request_id": "r1",
        "at": first.created_at,
        "memory_ids": [str(kayak.public_id)],
        "message_ids": [],
        "derived_ids": [],
    }


def test_a_memory_says_which_tokens_read_it_how_often_and_when_last(owner, token):
    phone = api_token_create(principal=owner, name="phone")[0]
    kayak = remember(owner, "User owns a red kayak.")
    canoe = remember(owner, "User owns a green canoe.")
    read(owner, token, memories=[kayak], at=timezone.now() - timedelta(days=2))
    read(owner, token, memories=[kayak, canoe])
    last = read(owner, phone, memories=[kayak, kayak])

    with principal_context(owner):
        readers = memory_readers(principal=owner, memory_id=kayak.public_id)

    assert [(r["token"].name, r["reads"]) for r in readers] == [("phone", 1), ("desktop", 2)]
    assert readers[0]["last_read_at"] == last.created_at


@pytest.mark.parametrize("bad_id", ["not an id", "a,b}", '"', "{}"])
def test_an_id_that_is_not_one_is_refused_and_the_transaction_goes_on(owner, token, bad_id):
    kayak = remember(owner, "User owns a red kayak.")

    with principal_transaction(owner):
        record_id = access_record(
            principal=owner,
            token=token,
            route="api:memories",
            request_id="r1",
            memories=[kayak.public_id, bad_id],
        )
        # The read's transaction still answers: the id was refused inside the write.
        assert AccessRecord.objects.filter(owner=owner).count() == 0

    assert record_id is None
    assert list(AccessRecordFailure.objects.values_list("count", flat=True)) == [1]


def test_the_failure_counter_counts_per_day(db):
    access_record_failure_count(day=date(2026, 1, 1))
    access_record_failure_count(day=date(2026, 1, 1))
    access_record_failure_count(day=date(2026, 1, 2))

    assert dict(AccessRecordFailure.objects.values_list("day", "count")) == {
        date(2026, 1, 1): 2,
        date(2026, 1, 2): 1,
    }


def test_the_operator_overview_shows_the_failures(client, operator):
    access_record_failure_count()
    access_record_failure_count(day=timezone.localdate() - timedelta(days=3))
    client.force_login(operator)
    page = client.get(reverse("admin:memory_beliefstatuscount_changelist"))

    body = re.sub(r"\s+", " ", page.content.decode())

    assert "<td>1 today, 2 in the last 7 days</td>" in body


@pytest.mark.postgres
def test_row_security_hides_access_records_from_everyone_else(owner, other_owner, token):
    read(owner, token, memories=[remember(owner, "User owns a red kayak.")])

    with principal_context(other_owner):
        assert AccessRecord.objects.count() == 0
        assert list(access_record_list(principal=owner)) == []
    with principal_context(None):
        assert AccessRecord.objects.count() == 0
    with principal_context(owner):
        assert AccessRecord.objects.count() == 1


@pytest.mark.postgres
def test_row_security_refuses_a_record_written_for_someone_else(owner, other_owner, token):
    with principal_context(other_owner), pytest.raises(DatabaseError), transaction.atomic():
        AccessRecord.objects.create(
            owner=owner,
            token=token,
            route="api:memories",
            request_id="x",
            created_at=timezone.now(),
        )


@pytest.mark.postgres
def test_the_tables_are_under_forced_row_security(db):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class "
            "WHERE relname = 'memory_accessrecord'"
        )
        assert cursor.fetchall() == [("memory_accessrecord", True, True)]
