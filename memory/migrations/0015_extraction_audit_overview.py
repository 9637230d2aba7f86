from django.db import migrations

from common.migration_operations import AllowDiscovery


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0014_provider_formation"),
    ]

    # The operator overview counts provider attempts across principals; the rows hold
    # usage, counts and error classes, never text.
    operations = [
        AllowDiscovery("extractionaudit", "overview"),
    ]
