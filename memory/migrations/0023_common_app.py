"""Flags and the worker's heartbeat now belong to the shared layer (``common 0001``); their
tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0022_formation_and_providers_apps"),
        ("common", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Flag"),
                migrations.DeleteModel(name="Heartbeat"),
            ],
        ),
    ]
