from django.db import migrations

from common.migration_operations import EnableOwnerRowSecurity
from memory.migration_operations import AddFullTextIndex

OWNER_BEARING_MODELS = [
    "session",
    "event",
    "run",
    "belief",
    "beliefsource",
    "deletionfence",
    "fencedevent",
    "auditrecord",
    "consolidationwatermark",
    "formationaudit",
    "extractionaudit",
]


class Migration(migrations.Migration):
    dependencies = [("memory", "0001_initial")]

    operations = [
        *(EnableOwnerRowSecurity(name) for name in OWNER_BEARING_MODELS),
        AddFullTextIndex("belief", "statement", pg_condition="status IN ('active', 'provisional')"),
        AddFullTextIndex(
            "event",
            "text",
            pg_condition=(
                "redacted_at IS NULL AND event_type IN ('user.message.created', "
                "'assistant.message.created', 'participant.message.created')"
            ),
        ),
    ]
