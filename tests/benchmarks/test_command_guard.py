"""Every benchmark command refuses a database that was not made for benchmarks."""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

SEEDING_COMMANDS = (
    ("benchmark_recall", "reverie_bench"),
    ("benchmark_formation", "reverie_bench"),
    ("benchmark_reconsolidation", "reverie_bench"),
    ("seed_load", "reverie_load"),
)


@pytest.mark.django_db
@pytest.mark.parametrize(("command", "prefix"), SEEDING_COMMANDS)
def test_a_benchmark_refuses_the_test_database(command, prefix):
    # The test database is named test_*: neither a benchmark database nor,
    # on SQLite, PostgreSQL at all.
    with pytest.raises(CommandError, match=f"{command} needs a PostgreSQL database named {prefix}"):
        call_command(command)


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_postgresql_database_with_another_name_is_refused_too(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "NAME", "reverie_production")

    with pytest.raises(CommandError, match="not postgresql 'reverie_production'"):
        call_command("benchmark_recall")
