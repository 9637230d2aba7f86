from django.db import migrations

from memory.migration_operations import IndexMessageAuthors


class Migration(migrations.Migration):
    dependencies = [("memory", "0010_minimal_excerpts")]

    operations = [
        IndexMessageAuthors(
            pg_condition=(
                "redacted_at IS NULL AND event_type IN ('user.message.created', "
                "'assistant.message.created', 'participant.message.created')"
            ),
        ),
    ]
