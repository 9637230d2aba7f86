"""Formation's models and the spend ledger's now belong to apps of their own
(``formation 0001``, ``providers 0001``); their tables stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0021_message_sensitivity"),
        ("formation", "0001_initial"),
        ("providers", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="belief",
                    name="formation",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="beliefs",
                        to="formation.formationaudit",
                    ),
                ),
                # ExtractionAudit before the FormationAudit it points at.
                migrations.DeleteModel(name="ExtractionAudit"),
                migrations.DeleteModel(name="FormationAudit"),
                migrations.DeleteModel(name="FormationRetry"),
                migrations.DeleteModel(name="ConsolidationWatermark"),
                migrations.DeleteModel(name="ProviderSpend"),
            ],
        ),
    ]
