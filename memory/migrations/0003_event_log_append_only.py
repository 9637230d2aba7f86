from django.db import migrations

from memory.migration_operations import MakeEventLogAppendOnly


class Migration(migrations.Migration):
    dependencies = [("memory", "0002_row_security_and_search")]

    operations = [MakeEventLogAppendOnly()]
