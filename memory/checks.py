from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Tags, Warning, register
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper


@register(Tags.database)
def full_text_match_is_leakproof(
    app_configs: Sequence[AppConfig] | None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    """Warn when row-level security keeps recall away from its GIN indexes."""
    problems: list[CheckMessage] = []
    for alias in databases or []:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        if not full_text_match_leakproof(connection):
            problems.append(
                Warning(
                    "Full-text matching is not LEAKPROOF, so under row-level security recall "
                    "scans every memory of a principal instead of using its index.",
                    hint="Run deploy/postgres-provision.sql as a superuser in this database.",
                    id="memory.W001",
                )
            )
    return problems


def full_text_match_leakproof(connection: BaseDatabaseWrapper) -> bool:
    """Whether PostgreSQL's full-text match is LEAKPROOF on ``connection``'s database: only
    then may row-level security let recall use its GIN indexes."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT proleakproof FROM pg_proc "
            "WHERE oid = 'pg_catalog.ts_match_vq(tsvector, tsquery)'::regprocedure"
        )
        row = cursor.fetchone()
    return bool(row and row[0])
