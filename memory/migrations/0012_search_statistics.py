"""Per-principal search statistics and document frequencies for BM25 on PostgreSQL.

Existing rows are counted principal by principal (the searchable tables are
under FORCE row security); from then on the triggers keep the counts.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from common.migration_operations import EnableOwnerRowSecurity
from memory.migration_operations import KeepSearchStatistics, count_search_statistics
from common.principal import principal_context

LIVE_BELIEF = "status IN ('active', 'provisional')"
SEARCHABLE_MESSAGE = (
    "redacted_at IS NULL AND event_type IN ('user.message.created', "
    "'assistant.message.created', 'participant.message.created')"
)


def count_existing_rows(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    User = apps.get_model("accounts", "User")
    for principal in User.objects.using(connection.alias).only("pk").iterator():
        with principal_context(principal, using=connection.alias), connection.cursor() as cursor:
            for table, collection, condition in (
                ("memory_belief", "belief", LIVE_BELIEF),
                ("memory_event", "message", SEARCHABLE_MESSAGE),
            ):
                count_search_statistics(
                    cursor,
                    owner_id=principal.pk,
                    table=table,
                    collection=collection,
                    condition=condition,
                )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_token_scope_and_mode"),
        ("memory", "0011_index_message_authors"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SearchStatistics",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "collection",
                    models.CharField(
                        choices=[
                            ("belief", "Belief"),
                            ("message", "Message"),
                            ("derived", "Derived"),
                        ],
                        max_length=12,
                    ),
                ),
                ("documents", models.BigIntegerField(default=0)),
                ("length", models.BigIntegerField(default=0)),
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
                "verbose_name_plural": "search statistics",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("owner", "collection"), name="search_statistics_unique"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SearchTerm",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "collection",
                    models.CharField(
                        choices=[
                            ("belief", "Belief"),
                            ("message", "Message"),
                            ("derived", "Derived"),
                        ],
                        max_length=12,
                    ),
                ),
                ("lexeme", models.TextField()),
                ("documents", models.BigIntegerField(default=0)),
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
                        fields=("owner", "collection", "lexeme"), name="search_term_unique"
                    )
                ],
            },
        ),
        EnableOwnerRowSecurity("searchterm"),
        KeepSearchStatistics("belief", "belief", LIVE_BELIEF, ["status", "statement"]),
        KeepSearchStatistics(
            "event",
            "message",
            SEARCHABLE_MESSAGE,
            ["redacted_at", "event_type", "text", "author_name"],
        ),
        migrations.RunPython(count_existing_rows, migrations.RunPython.noop),
    ]
