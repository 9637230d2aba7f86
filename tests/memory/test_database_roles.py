"""Two database roles: the runtime role owns no table and cannot switch row security off.

The suite itself runs as the owner role (it creates the test database and
migrates it, as the administrator's MIGRATION_DATABASE_URL would). These tests
connect to that same database as the runtime role, the one the web processes
and workers use, which deploy/postgres-provision.sql creates next to it:
``<role>`` beside ``<role>_owner``.
"""

import os
import subprocess
import sys

import psycopg
import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.db import connection

from common.models import OwnedModel

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

OWNER_SUFFIX = "_owner"


def runtime_role():
    configured = os.environ.get("REVERIE_RUNTIME_ROLE")
    if configured:
        return configured
    owner = connection.settings_dict["USER"]
    if not owner.endswith(OWNER_SUFFIX):
        pytest.fail(
            f"The suite connects as {owner!r}, not an owner role named <role>{OWNER_SUFFIX}; "
            "set REVERIE_RUNTIME_ROLE or provision with deploy/postgres-provision.sql."
        )
    return owner.removesuffix(OWNER_SUFFIX)


@pytest.fixture
def as_runtime():
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=runtime_role(),
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    ) as runtime:
        yield runtime


def owner_tables():
    return sorted(
        model._meta.db_table for model in apps.get_models() if issubclass(model, OwnedModel)
    )


def refused(runtime, statement):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        runtime.execute(statement)


def test_the_runtime_role_owns_nothing_and_is_bound_by_row_security(as_runtime):
    role = as_runtime.execute(
        "SELECT rolsuper, rolbypassrls, rolcreatedb, rolcreaterole FROM pg_roles "
        "WHERE rolname = current_user"
    ).fetchone()
    owned = as_runtime.execute(
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) = current_user"
    ).fetchone()

    assert role == (False, False, False, False)
    assert owned == (0,)


@pytest.mark.parametrize(
    "statement",
    [
        "ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY",
        "ALTER TABLE {table} DISABLE ROW LEVEL SECURITY",
        "DROP POLICY owner_isolation ON {table}",
        "CREATE POLICY everyone ON {table} USING (true)",
        "ALTER TABLE {table} OWNER TO CURRENT_USER",
        "DROP TABLE {table}",
    ],
)
def test_the_runtime_role_cannot_lift_row_security_on_any_owner_table(as_runtime, statement):
    for table in owner_tables():
        refused(as_runtime, statement.format(table=table))


def test_the_runtime_role_reads_and_writes_rows_it_is_given(as_runtime, owner):
    # Within a principal, as the service does: rows are reachable, DDL is not.
    with as_runtime.transaction():
        as_runtime.execute("SELECT set_config('app.principal_id', %s, true)", [str(owner.pk)])
        as_runtime.execute(
            "INSERT INTO memory_idempotencyrecord "
            "(owner_id, key, fingerprint, status_code, resource_id, created_at) "
            "VALUES (%s, 'k', 'f', 201, '', now())",
            [owner.pk],
        )
        rows = as_runtime.execute("SELECT count(*) FROM memory_idempotencyrecord").fetchone()
    unscoped = as_runtime.execute("SELECT count(*) FROM memory_idempotencyrecord").fetchone()

    assert rows == (1,) and unscoped == (0,)


def test_the_runtime_role_counts_failed_sign_ins_in_their_table_and_can_do_no_more(as_runtime):
    # The table migrate creates for the sign-in counters when there is no Redis.
    table = "accounts_sign_in_cache"
    as_runtime.execute(
        f"INSERT INTO {table} (cache_key, value, expires) VALUES ('k', '1', now() + interval '1h')"
    )
    as_runtime.execute(f"UPDATE {table} SET value = '2' WHERE cache_key = 'k'")
    counted = as_runtime.execute(f"SELECT value FROM {table} WHERE cache_key = 'k'").fetchone()
    as_runtime.execute(f"DELETE FROM {table}")

    assert counted == ("2",)
    refused(as_runtime, f"DROP TABLE {table}")
    refused(as_runtime, f"ALTER TABLE {table} OWNER TO CURRENT_USER")


def test_migrations_run_as_the_owner_role_given_by_migration_database_url():
    settings = connection.settings_dict
    host, port, name = settings["HOST"] or "127.0.0.1", settings["PORT"] or "5432", settings["NAME"]
    runtime_url = f"postgres://{runtime_role()}@{host}:{port}/{name}"
    owner_url = f"postgres://{settings['USER']}@{host}:{port}/{name}"
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "x" * 60,
        "DATABASE_URL": runtime_url,
        "REVERIE_ENV_FILE": "",
    }
    environment.pop("MIGRATION_DATABASE_URL", None)

    def migrate(*targets, **extra):
        return subprocess.run(
            [sys.executable, "manage.py", "migrate", *targets, "--no-input"],
            env={**environment, **extra},
            cwd=django_settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=300,
        )

    # Undo the newest memory migration and apply it again: as the runtime role
    # the schema cannot change; as the owner role it can.
    as_runtime = migrate("memory", "0008")
    assert as_runtime.returncode != 0 and "must be owner" in as_runtime.stderr
    try:
        assert migrate("memory", "0008", MIGRATION_DATABASE_URL=owner_url).returncode == 0
    finally:
        # Every app: undoing memory's migrations undid those of the apps built on it too.
        forward = migrate(MIGRATION_DATABASE_URL=owner_url)
    assert forward.returncode == 0, forward.stderr
