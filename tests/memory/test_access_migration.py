"""Migration 0017 moves the ids of existing access items into their records, in the order
they were written, and undoing it puts them back into item rows."""

import uuid

import pytest
from django.utils import timezone

from accounts.services import api_token_create
from common.principal import principal_context
from memory.models import AccessRecord
from tests.migrations import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("memory", "0016_access_records")]
AFTER = [("memory", "0017_access_ids_in_records")]


def items_written(apps, principal, token, route, items):
    """A record and its items as the code before 0017 wrote them."""
    Record = apps.get_model("memory", "AccessRecord")
    Item = apps.get_model("memory", "AccessedItem")
    with principal_context(principal):
        record = Record.objects.create(
            owner_id=principal.pk,
            token_id=token.pk,
            route=route,
            request_id="r1",
            created_at=timezone.now(),
            memory_count=sum(kind == "memory" for kind, _ in items),
            message_count=sum(kind == "message" for kind, _ in items),
            derived_count=sum(kind == "derived" for kind, _ in items),
        )
        Item.objects.bulk_create(
            Item(owner_id=principal.pk, record=record, kind=kind, public_id=public_id)
            for kind, public_id in items
        )
    return record.public_id


def carried(items, kind):
    return [str(public_id) for item_kind, public_id in items if item_kind == kind]


def test_the_ids_of_existing_items_move_into_their_records_and_back(owner, other_owner):
    tokens = {
        principal: api_token_create(principal=principal, name="desktop")[0]
        for principal in (owner, other_owner)
    }
    ids = [uuid.uuid4() for _ in range(5)]
    written = {
        owner: [
            ("api:recall", [("memory", ids[1]), ("message", ids[2]), ("memory", ids[0])]),
            ("api:memories", []),
        ],
        other_owner: [("api:derived", [("derived", ids[3]), ("memory", ids[4])])],
    }
    try:
        apps = migrate(BEFORE)
        expected = {
            items_written(apps, principal, tokens[principal], route, items): items
            for principal, reads in written.items()
            for route, items in reads
        }

        migrate(AFTER)

        for principal in written:
            with principal_context(principal):
                for record in AccessRecord.objects.filter(owner=principal):
                    items = expected.pop(record.public_id)
                    assert record.memory_ids == carried(items, "memory")
                    assert record.message_ids == carried(items, "message")
                    assert record.derived_ids == carried(items, "derived")
        assert expected == {}

        apps = migrate(BEFORE)
        Item = apps.get_model("memory", "AccessedItem")
        with principal_context(owner):
            recall = apps.get_model("memory", "AccessRecord").objects.get(route="api:recall")
            items = Item.objects.filter(record=recall).order_by("id")
            assert [(item.kind, item.public_id) for item in items] == [
                ("memory", ids[1]),
                ("memory", ids[0]),
                ("message", ids[2]),
            ]
            assert (recall.memory_count, recall.message_count, recall.derived_count) == (2, 1, 0)
    finally:
        migrate(latest())
