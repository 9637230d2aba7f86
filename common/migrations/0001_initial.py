"""Flags and the worker's heartbeat, moved out of ``memory`` with their tables."""

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
                    name="Heartbeat",
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
                        ("name", models.CharField(max_length=60, unique=True)),
                        ("seen_at", models.DateTimeField()),
                    ],
                    options={
                        "db_table": "memory_heartbeat",
                    },
                ),
                migrations.CreateModel(
                    name="Flag",
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
                        ("key", models.CharField(max_length=60, unique=True)),
                        ("enabled", models.BooleanField()),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "updated_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_flag",
                    },
                ),
            ],
        ),
        MoveContentTypes(("flag", "heartbeat"), source="memory", target="common"),
    ]
