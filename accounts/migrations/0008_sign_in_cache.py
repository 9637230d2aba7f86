from django.core.management import call_command
from django.db import migrations, models

# The sign-in counters' table when there is no Redis (accounts.sign_in_cache):
# the schema `createcachetable` makes, created here so that `migrate` alone
# prepares a database, as whichever role runs the migrations.
TABLE = "accounts_sign_in_cache"


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_admin_lookup_refused"),
    ]

    operations = [
        migrations.RunPython(create_cache_table, drop_cache_table),
        migrations.AlterField(
            model_name="operatoraction",
            name="action",
            field=models.CharField(
                choices=[
                    ("token_issued", "issued an API token"),
                    ("token_rotated", "rotated an API token"),
                    ("token_revoked", "revoked an API token"),
                    ("token_paused", "paused an API token"),
                    ("token_resumed", "resumed an API token"),
                    ("principal_activated", "activated the account"),
                    ("principal_deactivated", "deactivated the account"),
                    ("password_link_issued", "issued a set-password link"),
                    ("flag_set", "set a flag"),
                    ("owner_content_read", "read the account's memories from the shell"),
                    ("owner_content_changed", "acted on the account's memories from the shell"),
                    ("model_processing_opted_out", "opted out of model processing"),
                    ("model_processing_allowed", "allowed model processing"),
                    (
                        "admin_lookup_refused",
                        "was refused a lookup an admin list does not offer",
                    ),
                    ("sign_in_unlocked", "cleared failed sign-ins"),
                ],
                max_length=30,
            ),
        ),
    ]
