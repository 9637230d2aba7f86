"""Which sensitivity classifier last labelled each principal's messages and memories
(content-free, outside row security), and the audit action of a memory whose label it
raised. No principal has a record yet, so the maintenance sweep labels every one of them
again by the current classifier."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0023_common_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditrecord",
            name="action",
            field=models.CharField(
                choices=[
                    ("remembered", "Remembered"),
                    ("formed", "Formed"),
                    ("reinforced", "Reinforced"),
                    ("retracted", "Retracted"),
                    ("confirmed", "Confirmed"),
                    ("rejected", "Rejected"),
                    ("corrected", "Corrected"),
                    ("superseded", "Superseded"),
                    ("deleted", "Deleted"),
                    ("expired", "Expired"),
                    ("reclassified", "Reclassified"),
                    ("event_erased", "Event Erased"),
                    ("session_erased", "Session Erased"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="LabelsClassified",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("classifier", models.CharField(max_length=16)),
                ("classified_at", models.DateTimeField()),
                (
                    "owner",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "labels classified",
            },
        ),
    ]
