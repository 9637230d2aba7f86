"""Moving the test database between migrations, for tests of a data migration."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate to ``targets`` ((app, migration) pairs, or (app, None) for an app none of
    whose migrations is applied); return the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def latest():
    """Every app's newest migration: where the other tests expect the schema to be."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
