"""The base of every benchmark command: a database guard, query logging off, progress."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test.utils import override_settings

from benchmarks.suite import BenchmarkError
from memory.checks import full_text_match_leakproof


class BenchmarkCommand(BaseCommand):
    """A command that seeds, deletes and times on a throw-away PostgreSQL database.

    Subclasses implement ``run(connection, options)``; a ``BenchmarkError`` from the
    library code it calls stops the command with its message. ``database_prefix`` names the
    databases the command may write to: a benchmark deletes its own principals' data
    and bulk-inserts millions of rows, so it refuses any database not made for it
    (``None`` for a command that touches no database itself).
    """

    database_prefix: str | None = "reverie_bench"

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        if self.database_prefix is not None:
            self._check_database(connection, self.database_prefix)
        # With DEBUG on (the benchmark scripts set it for the development key),
        # Django keeps every statement's SQL in memory (a bulk insert is
        # megabytes) and times it: neither belongs in a measurement.
        with override_settings(DEBUG=False):
            try:
                self.run(connection, options)
            except BenchmarkError as exc:
                raise CommandError(str(exc)) from exc

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        raise NotImplementedError

    def server_version(self, connection: BaseDatabaseWrapper) -> str:
        return self._show(connection, "server_version")

    def shared_buffers(self, connection: BaseDatabaseWrapper) -> str:
        """PostgreSQL's buffer pool: whether a bank's pages are read from it or from the
        operating system's cache decides much of a query's time."""
        return self._show(connection, "shared_buffers")

    def _show(self, connection: BaseDatabaseWrapper, setting: str) -> str:
        with connection.cursor() as cursor:
            cursor.execute(f"SHOW {setting}")
            return str(cursor.fetchone()[0])

    def leakproof(self, connection: BaseDatabaseWrapper) -> bool:
        """Whether recall can use its GIN indexes here; says what to do when it cannot."""
        leakproof = full_text_match_leakproof(connection)
        if not leakproof:
            self.progress(
                "WARNING: ts_match_vq is not LEAKPROOF here (memory.W001), so row-level security "
                "keeps recall off its GIN index; run deploy/postgres-provision.sql as a superuser "
                "in this database (or in template1 before creating it)."
            )
        return leakproof

    def progress(self, message: str) -> None:
        """Progress goes to stderr, so that stdout holds the figures only."""
        self.stderr.write(f"[{time.strftime('%H:%M:%S')}] {message}")

    def _check_database(self, connection: BaseDatabaseWrapper, prefix: str) -> None:
        name = connection.settings_dict["NAME"] or ""
        if connection.vendor != "postgresql" or not name.startswith(prefix):
            raise CommandError(
                f"{self._name()} needs a PostgreSQL database named {prefix}*, "
                f"not {connection.vendor} {name!r}: it deletes and seeds its own data there "
                "(see docs/benchmarks.md)."
            )

    def _name(self) -> str:
        return type(self).__module__.rpartition(".")[2]
