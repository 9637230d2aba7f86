"""The content-free record of each call to a remote embedder."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("providers", "0002_provider_pause"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="EmbeddingCall",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "purpose",
                    models.CharField(
                        choices=[("query", "Query"), ("passages", "Passages")], max_length=10
                    ),
                ),
                ("texts", models.PositiveIntegerField()),
                ("request_bytes", models.PositiveIntegerField()),
                ("input_tokens", models.PositiveIntegerField(blank=True, null=True)),
                ("charged_micros", models.BigIntegerField(default=0)),
                ("error_class", models.CharField(blank=True, default="", max_length=40)),
                ("duration_ms", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
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
                "indexes": [
                    models.Index(fields=["created_at"], name="providers_e_created_892175_idx")
                ],
            },
        ),
    ]
