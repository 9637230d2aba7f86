"""The in-process recall CPU diagnostic: its refusals, its /proc reading, and a short run
on the test database through the same requests the load generator sends."""

import json
import os
import random
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks.load_api import clock_ticks, proc_stat_parse
from benchmarks.recall_cpu import (
    Backend,
    Uniform,
    backend_ticks,
    medians,
    recall_cpu_measure,
    round_order,
)


def run(*arguments):
    out, err = StringIO(), StringIO()
    call_command("benchmark_recall_cpu", *arguments, stdout=out, stderr=err)
    return out.getvalue()


# -- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds=0"], "Expected a positive integer, got '0'"),
        (["--rounds=three"], "Expected a positive integer, got 'three'"),
        (["--requests=-5"], "Expected a positive integer, got '-5'"),
        (["--words=bimodal"], "invalid choice: 'bimodal'"),
        (["--warmup=-1"], "Expected a whole number of at least 0, got '-1'"),
        (["--profile=some"], "Expected a whole number of at least 0, got 'some'"),
    ],
)
def test_bad_arguments_are_refused_with_what_was_expected(argv, message, tmp_path):
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*argv, f"--fixture={tmp_path / 'never-read.json'}")


def test_a_missing_fixture_says_how_to_make_one(tmp_path):
    with pytest.raises(CommandError, match="No load fixture at .*run_recall_cpu.sh"):
        run(f"--fixture={tmp_path / 'absent.json'}")


def test_a_fixture_of_another_database_is_refused(fixture_file):
    fixture = json.loads(fixture_file.read_text())
    fixture["database"] = "reverie_load_elsewhere"
    fixture_file.write_text(json.dumps(fixture))

    with pytest.raises(CommandError, match="written for the database 'reverie_load_elsewhere'"):
        run(f"--fixture={fixture_file}")


def test_a_token_the_database_does_not_know_stops_the_run_with_the_answer(fixture_file):
    fixture = json.loads(fixture_file.read_text())
    for principal in fixture["principals"]:
        principal["token"] = "rvr_not-a-token"
    fixture_file.write_text(json.dumps(fixture))

    with pytest.raises(CommandError, match="answered 401 .*tokens are replaced"):
        run(f"--fixture={fixture_file}", "--requests=1", "--warmup=0", "--rounds=1")


# -- /proc ---------------------------------------------------------------------------------


def test_a_stat_line_gives_the_name_the_parent_and_user_plus_system_ticks():
    # A command name may hold spaces and parentheses: fields count from the last ")".
    line = "4242 (postgres: a (b) c) S 17 4242 4242 0 -1 4194560 120 0 3 0 35 7 2 1 20 0 1 0 9 0"

    assert proc_stat_parse(line) == ("postgres: a (b) c", 17, 35 + 7)


def test_a_process_s_ticks_are_its_own_cpu_time():
    for _ in range(200_000):
        pass
    before = os.times()
    ticks = backend_ticks(os.getpid())
    after = os.times()

    low = (before.user + before.system) * clock_ticks()
    high = (after.user + after.system) * clock_ticks()
    assert low - 1 <= ticks <= high + 1


# -- the draw, the order and the medians -------------------------------------------------


def test_the_uniform_draw_gives_distinct_words_of_the_vocabulary():
    words = Uniform(["a", "b", "c", "d"])

    drawn = [words.sample(random.Random(seed), 3) for seed in range(50)]

    assert all(len(set(sample)) == 3 and set(sample) <= {"a", "b", "c", "d"} for sample in drawn)
    assert {word for sample in drawn for word in sample} == {"a", "b", "c", "d"}
    assert Uniform(["a", "b"]).sample(random.Random(1), 4) in (["a", "b"], ["b", "a"])


def test_every_other_round_runs_the_operations_in_reverse():
    assert round_order(1) == ("healthz", "memory", "recall")
    assert round_order(2) == ("recall", "memory", "healthz")
    assert round_order(3) == round_order(1)


def test_postgresql_s_median_is_left_out_when_a_round_could_not_read_it():
    def phase(op, round_, python, postgres):
        return {
            "operation": op,
            "round": round_,
            "requests": 10,
            "python_ms": python,
            "postgres_ms": postgres,
        }

    result = medians(
        [
            phase("recall", 1, 3.0, 2.0),
            phase("recall", 2, 1.0, 4.0),
            phase("recall", 3, 2.0, 3.0),
            phase("memory", 1, 1.0, 0.5),
            phase("memory", 2, 1.2, None),
        ]
    )

    assert result["recall"] == {"operation": "recall", "python_ms": 2.0, "postgres_ms": 3.0}
    assert result["memory"]["postgres_ms"] is None
    assert "healthz" not in result


# -- a short run on the test database ------------------------------------------------------


def test_the_measurement_gives_each_operation_s_python_cpu(fixture_file):
    fixture = json.loads(fixture_file.read_text())
    options = {"requests": 4, "warmup": 1, "rounds": 2, "words": "uniform", "seed": 3}

    result = recall_cpu_measure(
        connection, fixture, {**options, "profile": 0}, progress=lambda message: None
    )

    assert [(p["round"], p["operation"]) for p in result["phases"]] == [
        (1, "healthz"),
        (1, "memory"),
        (1, "recall"),
        (2, "recall"),
        (2, "memory"),
        (2, "healthz"),
    ]
    assert all(phase["python_ms"] > 0 for phase in result["phases"])
    assert set(result["medians"]) == {"healthz", "memory", "recall"}
    assert result["profile"] == {}
    if connection.vendor == "postgresql":
        assert result["postgres_unread"] == ""
        assert all(isinstance(p["postgres_ms"], float) for p in result["phases"])
        assert all(p["postgres_ms"] >= 0 for p in result["phases"])
    else:
        assert result["postgres_unread"] == "the database is SQLite, not PostgreSQL"
        assert all(phase["postgres_ms"] is None for phase in result["phases"])


def test_the_report_gives_each_round_the_medians_the_ratios_and_the_profile(fixture_file):
    output = run(
        f"--fixture={fixture_file}", "--requests=3", "--warmup=1", "--rounds=3", "--profile=4"
    )

    lines = output.splitlines()
    number = r"\d+\.\d{3}"
    postgres = number if connection.vendor == "postgresql" else "n/a"
    rows = [line for line in lines if re.match(r"^(\d|median) ", line)]
    assert len(rows) == 3 * 3 + 3
    for row in rows:
        assert re.fullmatch(
            rf"(\d+|median)\s+(healthz|memory|recall)\s+{number}\s+{postgres}\s+{postgres}", row
        ), row
    assert [row.split()[1] for row in rows[-3:]] == ["healthz", "memory", "recall"]
    assert "a diagnostic, no target" in lines[0]
    assert "3 requests per operation and round after 1 uncounted, 3 round(s)" in lines[0]
    assert "2 principals, each 3 beliefs" in output
    assert re.search(r"^recall / healthz: Python \d+\.\dx, total ", output, re.M)
    assert re.search(r"^recall / memory: Python \d+\.\dx, total ", output, re.M)
    if connection.vendor == "postgresql":
        assert re.search(
            r"^database: PostgreSQL \d[^,]*, \S+ as \S+; backend pid \d+$", output, re.M
        )
    else:
        assert "PostgreSQL CPU n/a: the database is SQLite, not PostgreSQL" in output
    profiled = output.split("recall under cProfile")[1:]
    assert len(profiled) == 2
    for section in profiled:
        functions = [line for line in section.splitlines()[2:] if line.strip()]
        assert len(functions) == 4
        assert all(re.match(rf"^\s*{number}\s+{number}\s+\d+\.\d\s+\S", f) for f in functions)


@pytest.mark.postgres
def test_on_postgresql_here_the_connection_s_backend_is_read(db):
    backend = Backend(connection)

    assert backend.unread == ""
    first = backend.ticks()
    assert isinstance(first, int)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM generate_series(1, 3000000)")
    assert backend.ticks() > first


@pytest.mark.postgres
def test_a_backend_that_is_no_process_of_this_machine_is_not_read(db, monkeypatch):
    monkeypatch.setattr(Backend, "_pid", lambda self: 2**22 + 1)

    backend = Backend(connection)

    assert "PostgreSQL runs elsewhere" in backend.unread
    assert backend.ticks() is None
