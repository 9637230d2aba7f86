"""Erasure reaches every copy: after it, no column of any table holds the erased text.

Each erased thing carries a marker word found nowhere else. The writes go
through the API under ``Idempotency-Key``s, so idempotency records, audit,
search indexes (the generated ``tsvector`` on PostgreSQL, the FTS5 shadow
tables on SQLite), formation records and derived memories all had their chance
to keep a copy. The scan reads every column of every table as text (bytes on
SQLite) under the owner's principal, which row security requires to see the
owner's rows at all.
"""

import pytest
from django.db import connection

from common.principal import principal_context
from memory.models import Belief, MemoryVector
from memory.services.vectors import vectors_sweep
from reconsolidation.models import DerivedMemory
from reconsolidation.services.passes import reconsolidation_pass
from tests.api.conftest import client_for
from tests.api.helpers import say, start_session

# Words no stemmer changes and no other test text holds.
MESSAGE_MARKER = "zorblat"
SESSION_MARKER = "quimzot"
CORRECTED_MARKER = "vexdrum"
DERIVED_MARKER = "plaxfen"
MARKERS = (MESSAGE_MARKER, SESSION_MARKER, CORRECTED_MARKER, DERIVED_MARKER)


def columns_holding(marker):
    """``table.column`` names whose value contains ``marker`` in any visible row."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor, include_views=False):
            if connection.vendor == "sqlite" and _is_virtual(cursor, table):
                # An FTS5 table reads its external content table; its own
                # storage is the shadow tables, which are scanned themselves.
                continue
            for column in connection.introspection.get_table_description(cursor, table):
                if _holds(cursor, table, column.name, marker):
                    found.append(f"{table}.{column.name}")
    return found


def _is_virtual(cursor, table):
    cursor.execute("SELECT sql FROM sqlite_master WHERE name = %s", [table])
    (sql,) = cursor.fetchone()
    return (sql or "").upper().startswith("CREATE VIRTUAL TABLE")


def _holds(cursor, table, column, marker):
    quote = connection.ops.quote_name
    if connection.vendor == "postgresql":
        condition = f"position(%s in lower({quote(column)}::text)) > 0"
    else:
        condition = f"instr(lower(CAST({quote(column)} AS BLOB)), CAST(%s AS BLOB)) > 0"
    cursor.execute(f"SELECT 1 FROM {quote(table)} WHERE {condition} LIMIT 1", [marker])
    return cursor.fetchone() is not None


class KeyedWrites:
    """Writes made under ``Idempotency-Key``s, kept so that they can be replayed."""

    def __init__(self, api):
        self.api = api
        self.made = []

    def post(self, url, body=None):
        key = f"write-{len(self.made)}"
        response = self.api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code in (200, 201), response.json()
        self.made.append((url, key, body))
        return response.json()

    def remember(self, statement, **fields):
        return self.post("/api/v1/memories", {"statement": statement, **fields})

    def replays(self):
        for url, key, body in self.made:
            yield self.api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def erase_one_of_everything(api, owner):
    """Make one of each erasable thing with its marker through keyed writes, erase it,
    and return those writes."""
    writes = KeyedWrites(api)

    # A message and the memory it supports.
    session = start_session(api)
    message = say(api, session, f"I moor my boat at {MESSAGE_MARKER} harbour.")
    writes.remember(f"User moors a boat at {MESSAGE_MARKER}.", source_event_ids=[message["id"]])
    writes.post(f"/api/v1/events/{message['id']}/erase")

    # A whole session, its message appended under a key.
    doomed = start_session(api)
    appended = writes.post(
        f"/api/v1/sessions/{doomed['id']}/events",
        {"type": "user.message.created", "parts": [{"text": f"My {SESSION_MARKER} is blue."}]},
    )
    writes.remember(f"User has a blue {SESSION_MARKER}.", source_event_ids=[appended["id"]])
    writes.post(f"/api/v1/sessions/{doomed['id']}/erase")

    # A memory corrected under a key, then deleted.
    first = writes.remember(f"User's {CORRECTED_MARKER} is red.", subject="thing:car")
    corrected = writes.post(
        f"/api/v1/memories/{first['id']}/correct",
        {"expected_revision": 1, "statement": f"User's {CORRECTED_MARKER} is green."},
    )
    api.delete(f"/api/v1/memories/{corrected['id']}?expected_revision={corrected['revision']}")

    # Memories a summary copies, then erased, which erases the summary's copies.
    sources = [
        writes.remember(f"{DERIVED_MARKER.title()} {claim}", subject=f"person:{DERIVED_MARKER}")
        for claim in ("is my nephew.", "plays the cello.", "lives in Leeds.")
    ]
    while not reconsolidation_pass(principal=owner).full_scan_completed:
        pass
    # Every memory with its vector, the summary's from the maintenance sweep.
    vectors_sweep()
    with principal_context(owner):
        summary = DerivedMemory.objects.get(owner=owner, kind="summary")
        assert MemoryVector.objects.filter(collection="derived", row_id=summary.pk).exists()
        assert MemoryVector.objects.filter(collection="belief").count() == len(sources)
    for source in sources:
        api.delete(f"/api/v1/memories/{source['id']}?expected_revision={source['revision']}")
    return writes


@pytest.mark.django_db(transaction=True)
def test_no_table_keeps_erased_text_and_replays_show_the_erasure(owner, processing_on):
    api = client_for(owner)
    writes = erase_one_of_everything(api, owner)

    for replay in writes.replays():
        assert replay["Idempotent-Replayed"] == "true"
        assert not any(marker in replay.content.decode() for marker in MARKERS), replay.json()

    with principal_context(owner):
        hits = {marker: columns_holding(marker) for marker in MARKERS}
    assert hits == {marker: [] for marker in MARKERS}


@pytest.mark.django_db(transaction=True)
def test_no_vector_of_an_erased_memory_or_erased_copy_remains(owner, processing_on):
    # A vector holds no words for the scan above to find: what it was made from is checked.
    erase_one_of_everything(client_for(owner), owner)

    with principal_context(owner):
        erased = set(
            Belief.objects.filter(owner=owner, status="deleted").values_list("pk", flat=True)
        )
        blanked = set(
            DerivedMemory.objects.filter(owner=owner, statement="").values_list("pk", flat=True)
        )
        left = set(MemoryVector.objects.filter(owner=owner).values_list("collection", "row_id"))
    assert erased and blanked
    assert left.isdisjoint({("belief", pk) for pk in erased})
    assert left.isdisjoint({("derived", pk) for pk in blanked})
