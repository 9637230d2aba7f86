"""Migration 0019 deletes the idempotency records whose fingerprints were plain hashes."""

import hashlib

import pytest

from common.principal import principal_context
from memory.models import IdempotencyRecord
from tests.migrations import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("memory", "0018_access_record_write_from_text")]
AFTER = [("memory", "0019_idempotency_fingerprints_keyed")]


def test_records_with_a_plain_hash_of_the_request_are_deleted_for_every_principal(
    owner, other_owner
):
    try:
        apps = migrate(BEFORE)
        Record = apps.get_model("memory", "IdempotencyRecord")
        for principal in (owner, other_owner):
            with principal_context(principal):
                Record.objects.create(
                    owner_id=principal.pk,
                    key="k",
                    fingerprint=hashlib.sha256(
                        b'POST /api/v1/memories\n{"statement":"x"}'
                    ).hexdigest(),
                    status_code=201,
                    resource_id="x",
                )

        migrate(AFTER)

        for principal in (owner, other_owner):
            with principal_context(principal):
                assert not IdempotencyRecord.objects.filter(owner=principal).exists()
    finally:
        migrate(latest())
