from django.db import migrations, models


def refuse_losing_topic_calls(apps, schema_editor):
    """A schema that does not know topic reviews would misread their call audit."""
    ProviderCall = apps.get_model("reconsolidation", "ProviderCall")
    if ProviderCall.objects.filter(stage__startswith="topic_").exists():
        raise RuntimeError(
            "Topic reviews' call audit exists: unapplying this migration would leave calls "
            "that the earlier application cannot read. Keep this migration applied."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("reconsolidation", "0005_provider_calls"),
    ]

    operations = [
        migrations.AlterField(
            model_name="providercall",
            name="stage",
            field=models.CharField(
                choices=[
                    ("proposal", "Proposal"),
                    ("verification", "Verification"),
                    ("topic_proposal", "Topic Proposal"),
                    ("topic_verification", "Topic Verification"),
                ],
                max_length=20,
            ),
        ),
        # Last, so that unapplying refuses before anything is changed.
        migrations.RunPython(migrations.RunPython.noop, refuse_losing_topic_calls),
    ]
