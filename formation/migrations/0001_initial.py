"""Formation's models, moved out of ``memory`` with their tables."""

import django.db.models.deletion
import common.models
from django.conf import settings
from django.db import migrations, models

from common.migration_operations import MoveContentTypes


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("memory", "0021_message_sensitivity"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables are memory's, created by its migrations and kept under their names:
        # only Django's idea of which app holds the models changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ConsolidationWatermark",
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
                        ("sequence", models.PositiveIntegerField(default=0)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "session",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="watermark",
                                to="memory.session",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_consolidationwatermark",
                    },
                ),
                migrations.CreateModel(
                    name="FormationAudit",
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
                        (
                            "public_id",
                            models.UUIDField(
                                default=common.models.new_public_id,
                                editable=False,
                                unique=True,
                            ),
                        ),
                        (
                            "policy_version",
                            models.CharField(
                                choices=[
                                    ("formation@1", "Formation 1"),
                                    ("formation@2", "Formation 2"),
                                    ("formation@3", "Formation 3"),
                                    ("formation@4", "Formation 4"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "outcome",
                            models.CharField(
                                choices=[
                                    ("committed", "Committed"),
                                    ("contention", "Contention"),
                                    ("noop", "Noop"),
                                    ("failed", "Failed"),
                                ],
                                max_length=12,
                            ),
                        ),
                        ("from_sequence", models.PositiveIntegerField()),
                        ("to_sequence", models.PositiveIntegerField()),
                        ("returned_count", models.PositiveIntegerField(default=0)),
                        ("consumed_count", models.PositiveIntegerField(default=0)),
                        ("committed_count", models.PositiveIntegerField(default=0)),
                        ("reinforced_count", models.PositiveIntegerField(default=0)),
                        ("superseded_count", models.PositiveIntegerField(default=0)),
                        ("rejected_count", models.PositiveIntegerField(default=0)),
                        ("rejection_reasons", models.JSONField(blank=True, default=dict)),
                        ("error_class", models.CharField(blank=True, default="", max_length=80)),
                        ("started_at", models.DateTimeField()),
                        ("duration_ms", models.PositiveIntegerField(default=0)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="formations",
                                to="memory.session",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_formationaudit",
                    },
                ),
                migrations.CreateModel(
                    name="ExtractionAudit",
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
                        (
                            "public_id",
                            models.UUIDField(
                                default=common.models.new_public_id,
                                editable=False,
                                unique=True,
                            ),
                        ),
                        ("provider", models.CharField(max_length=80)),
                        ("model", models.CharField(blank=True, default="", max_length=120)),
                        ("model_policy", models.CharField(blank=True, default="", max_length=80)),
                        ("usage", models.JSONField(blank=True, default=dict)),
                        ("returned_count", models.PositiveIntegerField(default=0)),
                        ("dropped", models.JSONField(blank=True, default=dict)),
                        ("fallback", models.BooleanField(default=False)),
                        ("error_class", models.CharField(blank=True, default="", max_length=80)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "formation",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="extractions",
                                to="formation.formationaudit",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_extractionaudit",
                    },
                ),
                migrations.CreateModel(
                    name="FormationRetry",
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
                        ("attempts", models.PositiveIntegerField()),
                        ("next_attempt_at", models.DateTimeField()),
                        ("gave_up_at", models.DateTimeField(blank=True, null=True)),
                        ("error_class", models.CharField(blank=True, default="", max_length=80)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "session",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="formation_retry",
                                to="memory.session",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_formationretry",
                    },
                ),
                migrations.AddIndex(
                    model_name="formationaudit",
                    index=models.Index(
                        fields=["owner", "created_at"], name="memory_form_owner_i_5e835b_idx"
                    ),
                ),
            ],
        ),
        MoveContentTypes(
            ("consolidationwatermark", "formationaudit", "extractionaudit", "formationretry"),
            source="memory",
            target="formation",
        ),
    ]
