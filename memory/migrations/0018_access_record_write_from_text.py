from django.db import migrations

from memory.migration_operations import AccessRecordWriteFromText


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0017_access_ids_in_records"),
    ]

    operations = [
        AccessRecordWriteFromText(),
    ]
