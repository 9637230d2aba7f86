"""Readiness: can this process serve? Content-free checks only."""

from datetime import datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from common.models import Heartbeat
from common.services.heartbeat import WORKER

# The heartbeat schedule runs every minute; allow for the scheduler's own
# 30-second cadence and a busy worker.
HEARTBEAT_MAX_AGE = timedelta(minutes=3)


def readiness(*, now: datetime | None = None) -> dict[str, bool]:
    """``{check: bool}`` for the database, the migrations and the worker heartbeat."""
    checks = {"database": False, "migrations": False, "worker": False}
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = True
        executor = MigrationExecutor(connection)
        targets = executor.loader.graph.leaf_nodes()
        checks["migrations"] = not executor.migration_plan(targets)
        seen = Heartbeat.objects.filter(name=WORKER).values_list("seen_at", flat=True).first()
        checks["worker"] = seen is not None and seen >= (now or timezone.now()) - HEARTBEAT_MAX_AGE
    except Exception:
        pass
    return checks
