"""Each searchable belief's and message's length for BM25, stored beside its vector on
PostgreSQL, so that recall scores its candidates without unnesting their vectors."""

from django.db import migrations

from memory.migration_operations import StoreSearchLength


class Migration(migrations.Migration):
    dependencies = [("memory", "0024_sensitivity_labels_classified")]

    operations = [StoreSearchLength(["belief", "event"])]
