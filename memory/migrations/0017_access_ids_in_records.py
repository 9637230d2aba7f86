"""An access record holds the ids its read returned in its own columns, not in item rows.

Every token read wrote a record and one item row per id (with three indexes each); now
it writes one row, on PostgreSQL through ``memory_access_record_write()``. The ids of
existing items move into their records, principal by principal on PostgreSQL (the
tables are under FORCE row security), in the order they were written; then the item
table goes. Undoing puts them back into item rows.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import memory.models.fields
from common.migration_operations import EnableOwnerRowSecurity
from memory.migration_operations import AccessRecordWrite, IndexIdsHeld
from common.principal import principal_context

KINDS = ("memory", "message", "derived")

POSTGRES_IDS_INTO_RECORDS = """
UPDATE memory_accessrecord AS record
SET memory_ids = items.memory_ids, message_ids = items.message_ids,
    derived_ids = items.derived_ids
FROM (
    SELECT record_id,
           coalesce(array_agg(public_id ORDER BY id) FILTER (WHERE kind = 'memory'), '{}')
               AS memory_ids,
           coalesce(array_agg(public_id ORDER BY id) FILTER (WHERE kind = 'message'), '{}')
               AS message_ids,
           coalesce(array_agg(public_id ORDER BY id) FILTER (WHERE kind = 'derived'), '{}')
               AS derived_ids
    FROM memory_accesseditem
    GROUP BY record_id
) AS items
WHERE record.id = items.record_id
"""

POSTGRES_IDS_INTO_ITEMS = """
INSERT INTO memory_accesseditem (owner_id, record_id, kind, public_id)
SELECT record.owner_id, record.id, item.kind, item.public_id
FROM memory_accessrecord AS record, LATERAL (
    SELECT 0 AS rank, 'memory' AS kind, public_id, n
    FROM unnest(record.memory_ids) WITH ORDINALITY AS ids(public_id, n)
    UNION ALL
    SELECT 1, 'message', public_id, n
    FROM unnest(record.message_ids) WITH ORDINALITY AS ids(public_id, n)
    UNION ALL
    SELECT 2, 'derived', public_id, n
    FROM unnest(record.derived_ids) WITH ORDINALITY AS ids(public_id, n)
) AS item
ORDER BY record.id, item.rank, item.n;

UPDATE memory_accessrecord
SET memory_count = cardinality(memory_ids), message_count = cardinality(message_ids),
    derived_count = cardinality(derived_ids)
"""

# SQLite has no row security: every owner's rows at once. Items and lists alike hold a
# UUID's hex digits, as Django stores one there.
SQLITE_IDS_INTO_RECORDS = """
UPDATE memory_accessrecord
SET memory_ids = (SELECT json_group_array(public_id) FROM (
        SELECT public_id FROM memory_accesseditem AS item
        WHERE item.record_id = memory_accessrecord.id AND item.kind = 'memory' ORDER BY item.id
    )),
    message_ids = (SELECT json_group_array(public_id) FROM (
        SELECT public_id FROM memory_accesseditem AS item
        WHERE item.record_id = memory_accessrecord.id AND item.kind = 'message' ORDER BY item.id
    )),
    derived_ids = (SELECT json_group_array(public_id) FROM (
        SELECT public_id FROM memory_accesseditem AS item
        WHERE item.record_id = memory_accessrecord.id AND item.kind = 'derived' ORDER BY item.id
    ))
"""

SQLITE_IDS_INTO_ITEMS = """
INSERT INTO memory_accesseditem (owner_id, record_id, kind, public_id)
SELECT owner_id, record_id, kind, public_id FROM (
    SELECT record.owner_id, record.id AS record_id, 0 AS rank, 'memory' AS kind,
           ids.value AS public_id, ids.key AS n
    FROM memory_accessrecord AS record, json_each(record.memory_ids) AS ids
    UNION ALL
    SELECT record.owner_id, record.id, 1, 'message', ids.value, ids.key
    FROM memory_accessrecord AS record, json_each(record.message_ids) AS ids
    UNION ALL
    SELECT record.owner_id, record.id, 2, 'derived', ids.value, ids.key
    FROM memory_accessrecord AS record, json_each(record.derived_ids) AS ids
)
ORDER BY record_id, rank, n;

UPDATE memory_accessrecord
SET memory_count = json_array_length(memory_ids), message_count = json_array_length(message_ids),
    derived_count = json_array_length(derived_ids)
"""


def _each_principal(schema_editor, apps, postgres, sqlite):
    """Run the vendor's statements (``;``-separated): on SQLite once, on PostgreSQL in each
    principal's context."""
    connection = schema_editor.connection
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            for statement in sqlite.split(";"):
                cursor.execute(statement)
        return
    User = apps.get_model("accounts", "User")
    for principal in User.objects.using(connection.alias).only("pk").iterator():
        with principal_context(principal, using=connection.alias), connection.cursor() as cursor:
            for statement in postgres.split(";"):
                cursor.execute(statement)


def ids_into_records(apps, schema_editor):
    _each_principal(schema_editor, apps, POSTGRES_IDS_INTO_RECORDS, SQLITE_IDS_INTO_RECORDS)


def ids_into_items(apps, schema_editor):
    _each_principal(schema_editor, apps, POSTGRES_IDS_INTO_ITEMS, SQLITE_IDS_INTO_ITEMS)


class OwnerRowSecurityOnUndo(EnableOwnerRowSecurity):
    """Nothing going forward (dropping a table drops its policy); undoing the drop makes the
    table again, and this puts it back under FORCE row security."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        pass

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        super().database_forwards(app_label, schema_editor, to_state, from_state)

    def describe(self):
        return f"Owner row-level security on {self.model_name} again when undone"


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_token_pause"),
        ("memory", "0016_access_records"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *(
            migrations.AddField(
                model_name="accessrecord",
                name=f"{kind}_ids",
                field=memory.models.fields.PublicIdsField(default=list),
            )
            for kind in KINDS
        ),
        migrations.RunPython(ids_into_records, ids_into_items),
        *(
            migrations.RemoveField(model_name="accessrecord", name=f"{kind}_count")
            for kind in KINDS
        ),
        OwnerRowSecurityOnUndo("accesseditem"),
        migrations.DeleteModel(name="AccessedItem"),
        migrations.AlterField(
            model_name="accessrecord",
            name="owner",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="accessrecord",
            name="token",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="access_records",
                to="accounts.apitoken",
            ),
        ),
        IndexIdsHeld("accessrecord", "memory_ids"),
        AccessRecordWrite(),
    ]
