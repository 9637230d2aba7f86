"""Idempotency records keep the id of what a write answered with, never its body.

The body of every record still within its lifetime is reduced to the resource
id it named, principal by principal (the table is under FORCE row security),
and then the column is dropped with whatever text it held.
"""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from common.principal import principal_context


def keep_only_the_resource_id(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    IdempotencyRecord = apps.get_model("memory", "IdempotencyRecord")
    alias = schema_editor.connection.alias
    for principal in User.objects.using(alias).only("pk").iterator():
        with principal_context(principal, using=alias):
            IdempotencyRecord.objects.using(alias).filter(owner_id=principal.pk).update(
                resource_id=Coalesce(KT("body__id"), Value(""))
            )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_api_token"),
        ("memory", "0008_belief_subject_claim_key_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotencyrecord",
            name="resource_id",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(keep_only_the_resource_id, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencyrecord", name="body"),
        migrations.AlterField(
            model_name="maintenancedue",
            name="kind",
            field=models.CharField(
                choices=[
                    ("belief_expiry", "Belief Expiry"),
                    ("idempotency_purge", "Idempotency Purge"),
                ],
                max_length=30,
            ),
        ),
    ]
