"""Derived memories are found through the full-text indexes, as beliefs and messages are.

Existing rows are counted for BM25 principal by principal (the table is under
FORCE row security); from then on the triggers keep the counts.
"""

from django.db import migrations

from memory.migration_operations import KeepSearchStatistics, count_search_statistics
from reconsolidation.migration_operations import AddDerivedFullTextIndex
from common.principal import principal_context

SEARCHABLE_DERIVED = "status = 'active' AND NOT restricted"


def count_existing_rows(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    User = apps.get_model("accounts", "User")
    for principal in User.objects.using(connection.alias).only("pk").iterator():
        with principal_context(principal, using=connection.alias), connection.cursor() as cursor:
            count_search_statistics(
                cursor,
                owner_id=principal.pk,
                table="reconsolidation_derivedmemory",
                collection="derived",
                condition=SEARCHABLE_DERIVED,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0012_search_statistics"),
        ("reconsolidation", "0003_receipt_derived"),
    ]

    operations = [
        AddDerivedFullTextIndex("derivedmemory", pg_condition=SEARCHABLE_DERIVED),
        KeepSearchStatistics(
            "derivedmemory",
            "derived",
            SEARCHABLE_DERIVED,
            ["status", "restricted", "kind", "subject", "statement"],
        ),
        migrations.RunPython(count_existing_rows, migrations.RunPython.noop),
    ]
