"""The base of every benchmark command: a database guard, query logging off, progress."""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import override_settings


class BenchmarkCommand(BaseCommand):
    """A command that seeds, deletes and times on a throw-away PostgreSQL database.

    Subclasses implement ``run(connection, options)``. ``database_prefix`` names the
    databases the command may write to: a benchmark deletes its own principals' data
    and bulk-inserts millions of rows, so it refuses any database not made for it
    (``None`` for a command that touches no database itself).
    """

    database_prefix = "reverie_bench"

    def handle(self, *args, **options):
        connection = connections[DEFAULT_DB_ALIAS]
        if self.database_prefix is not None:
            self._check_database(connection)
        # With DEBUG on (the benchmark scripts set it for the development key),
        # Django keeps every statement's SQL in memory (a bulk insert is
        # megabytes) and times it: neither belongs in a measurement.
        with override_settings(DEBUG=False):
            return self.run(connection, options)

    def run(self, connection, options):
        raise NotImplementedError

    def progress(self, message):
        """Progress goes to stderr, so that stdout holds the figures only."""
        self.stderr.write(f"[{time.strftime('%H:%M:%S')}] {message}")

    def _check_database(self, connection):
        name = connection.settings_dict["NAME"] or ""
        if connection.vendor != "postgresql" or not name.startswith(self.database_prefix):
            raise CommandError(
                f"{self._name()} needs a PostgreSQL database named {self.database_prefix}*, "
                f"not {connection.vendor} {name!r}: it deletes and seeds its own data there "
                "(see docs/benchmarks.md)."
            )

    def _name(self):
        return type(self).__module__.rpartition(".")[2]
