"""Challenges: proposals that wait for the owner instead of overruling a memory."""

import common.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from common.migration_operations import EnableOwnerRowSecurity


class Migration(migrations.Migration):
    dependencies = [
        ("formation", "0001_initial"),
        ("memory", "0023_common_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Challenge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "public_id",
                    models.UUIDField(
                        default=common.models.new_public_id, editable=False, unique=True
                    ),
                ),
                (
                    "type",
                    models.CharField(
                        choices=[
                            ("ownership", "Ownership"),
                            ("preference", "Preference"),
                            ("attribute", "Attribute"),
                            ("relationship", "Relationship"),
                            ("decision", "Decision"),
                            ("outcome", "Outcome"),
                            ("fact", "Fact"),
                        ],
                        max_length=20,
                    ),
                ),
                ("subject", models.CharField(max_length=200)),
                ("statement", models.TextField()),
                (
                    "polarity",
                    models.CharField(
                        choices=[("positive", "Positive"), ("negative", "Negative")], max_length=10
                    ),
                ),
                ("fingerprint", models.CharField(max_length=64)),
                ("model_proposed", models.BooleanField(default=False)),
                (
                    "state",
                    models.CharField(
                        choices=[("open", "Open"), ("kept", "Kept"), ("replaced", "Replaced")],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                (
                    "formation",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="formation.formationaudit",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "replacement",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="memory.belief",
                    ),
                ),
                (
                    "standing",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges",
                        to="memory.belief",
                    ),
                ),
            ],
            options={
                "db_table": "memory_challenge",
            },
        ),
        migrations.CreateModel(
            name="ChallengeSource",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "challenge",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sources",
                        to="formation.challenge",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="memory.event",
                    ),
                ),
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
                "db_table": "memory_challengesource",
            },
        ),
        migrations.AddField(
            model_name="challenge",
            name="events",
            field=models.ManyToManyField(
                related_name="challenges", through="formation.ChallengeSource", to="memory.event"
            ),
        ),
        migrations.AddConstraint(
            model_name="challengesource",
            constraint=models.UniqueConstraint(
                fields=("challenge", "event"), name="challenge_source_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                fields=["owner", "state", "created_at"], name="memory_chal_owner_i_2fa0d4_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                fields=["owner", "fingerprint"], name="memory_chal_owner_i_77017b_idx"
            ),
        ),
        migrations.AddConstraint(
            model_name="challenge",
            constraint=models.CheckConstraint(
                condition=models.Q(("state__in", ["open", "kept", "replaced"])),
                name="challenge_state_closed",
            ),
        ),
        EnableOwnerRowSecurity("challenge"),
        EnableOwnerRowSecurity("challengesource"),
    ]
