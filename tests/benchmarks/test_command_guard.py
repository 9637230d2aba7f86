"""Every benchmark command refuses a database that was not made for benchmarks."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks.command import BenchmarkCommand

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


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
@pytest.mark.parametrize("workers", [1, 2])
def test_the_formation_benchmark_runs_end_to_end(monkeypatch, tmp_path, workers):
    # Tiny sizes, in the test database, which the guard is told to accept: every
    # figure of the record comes from a real run, the worker processes included.
    monkeypatch.setattr(BenchmarkCommand, "database_prefix", connection.settings_dict["NAME"])
    out = tmp_path / "formation.json"

    call_command(
        "benchmark_formation",
        "--sessions=4",
        "--messages=3",
        "--principals=2",
        # Rounds of 3 and 1 sessions: each round's sweep finds its own sessions due.
        "--round=3",
        f"--workers={workers}",
        f"--json-out={out}",
        stdout=StringIO(),
        stderr=StringIO(),
    )

    record = json.loads(out.read_text())
    formation, append = record["figures"]
    assert record["details"]["messages"] == 12
    assert sum(record["details"]["consolidations"].values()) == 4
    assert formation["value"] > 0 and append["baseline"]["value"] > 0
    bare = get_user_model().objects.filter(username__startswith="formation-bench-bare-")
    assert not bare.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_the_recall_benchmark_runs_end_to_end(monkeypatch, tmp_path):
    monkeypatch.setattr(BenchmarkCommand, "database_prefix", connection.settings_dict["NAME"])
    out, stdout = tmp_path / "recall.json", StringIO()

    call_command(
        "benchmark_recall",
        "--sizes=40,80",
        "--principals=2",
        "--queries=6",
        "--warmup=2",
        f"--json-out={out}",
        stdout=stdout,
        stderr=StringIO(),
    )

    record = json.loads(out.read_text())
    details = record["details"]
    assert [size["beliefs"] for size in details["sizes"]] == [80, 160]
    assert all(size["table_mib"] > 0 for size in details["sizes"])
    assert details["shared_buffers"] in stdout.getvalue()
    figure, *meaning = record["figures"]
    # 80 beliefs per principal is no bank the target speaks of.
    assert figure["target"]["applicable"] is False
    assert figure["value"] > 0
    # The search by meaning at each size, over vectors the run gave the banks.
    assert [f["name"] for f in meaning] == [
        "search by meaning p95 at 40/principal",
        "search by meaning p95 at 80/principal",
    ]
    assert all(f["value"] > 0 for f in meaning)
