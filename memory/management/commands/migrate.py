"""``migrate`` as the database's owner role when ``MIGRATION_DATABASE_URL`` is set.

The service runs as a runtime role that owns no table (see
deploy/postgres-provision.sql), so it cannot change the schema, nor switch row
security off. Migrations need the role that owns the tables: the machine
administrator gives it as ``MIGRATION_DATABASE_URL`` and runs ``migrate`` as
usual.
"""

import os
from typing import Any

import environ
from django.core.management.commands import migrate
from django.db import connections


class Command(migrate.Command):
    def handle(self, *args: Any, **options: Any) -> str | None:
        url = os.environ.get("MIGRATION_DATABASE_URL")
        if url:
            alias = options["database"]
            connection = connections[alias]
            owner = environ.Env.db_url_config(url)
            connection.close()
            for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT"):
                connection.settings_dict[key] = owner.get(key, "")
        return super().handle(*args, **options)
