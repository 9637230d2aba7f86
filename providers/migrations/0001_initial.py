"""The spend ledger's model, moved out of ``memory`` with its table."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from common.migration_operations import MoveContentTypes


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables are memory's, created by its migrations and kept under their names:
        # only Django's idea of which app holds the models changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ProviderSpend",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("day", models.DateField()),
                        ("committed_micros", models.BigIntegerField(default=0)),
                        ("calls", models.PositiveIntegerField(default=0)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "principal",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_providerspend",
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("principal__isnull", False)),
                                fields=("day", "principal"),
                                name="provider_spend_one_row_per_principal_day",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("principal__isnull", True)),
                                fields=("day",),
                                name="provider_spend_one_global_row_per_day",
                            ),
                        ],
                    },
                ),
            ],
        ),
        MoveContentTypes(("providerspend",), source="memory", target="providers"),
    ]
