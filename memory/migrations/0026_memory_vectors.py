"""Memories' vectors for recall by meaning, under row security, and the content-free state
that tells the maintenance sweep whose memories wait for theirs."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from common.migration_operations import EnableOwnerRowSecurity


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0025_search_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="MemoryVector",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("collection", models.CharField(max_length=12)),
                ("row_id", models.BigIntegerField()),
                ("embedder", models.CharField(max_length=120)),
                ("vector", models.BinaryField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("owner", "collection", "embedder", "row_id"),
                        name="memory_vector_unique",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="VectorState",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("embedder", models.CharField(blank=True, default="", max_length=120)),
                ("embedded_at", models.DateTimeField(blank=True, null=True)),
                ("due_at", models.DateTimeField(blank=True, null=True)),
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
                "indexes": [models.Index(fields=["due_at"], name="memory_vect_due_at_0191c3_idx")],
            },
        ),
        # A vector is derived from a memory's text: it is the owner's alone, as the text is.
        EnableOwnerRowSecurity("memoryvector"),
    ]
