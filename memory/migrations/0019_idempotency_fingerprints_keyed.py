"""Idempotency fingerprints are keyed with the server's secret from now on.

A fingerprint written before was a plain hash of the request, which confirms a
guessed statement to whoever reads the table: every such record is deleted,
principal by principal (the table is under FORCE row security). A key in flight
loses its replay, as it would when its day ends.
"""

from django.db import migrations

from common.principal import principal_context


def delete_unkeyed_records(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    IdempotencyRecord = apps.get_model("memory", "IdempotencyRecord")
    alias = schema_editor.connection.alias
    for principal in User.objects.using(alias).only("pk").iterator():
        with principal_context(principal, using=alias):
            IdempotencyRecord.objects.using(alias).filter(owner_id=principal.pk).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_api_token"),
        ("memory", "0018_access_record_write_from_text"),
    ]

    operations = [
        # Backwards there is nothing to restore: keyed records are fingerprints as good
        # as any to the older code, which only compares them.
        migrations.RunPython(delete_unkeyed_records, migrations.RunPython.noop),
    ]
