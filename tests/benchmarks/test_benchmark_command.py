"""The benchmark command's pure parts: plans, medians, verdicts, the table and its checks.

No benchmark runs here: the records are samples in the format the benchmarks write, and
the scripts that the command starts are stand-ins written by the tests.
"""

import json
import socket
import stat
from argparse import Namespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from benchmarks import suite as benchmarking
from benchmarks.formation import formation_record
from benchmarks.load_api import Recorder, load_record
from benchmarks.recall import BankCounts, SizeResult, recall_record, sizes_left
from benchmarks.reconsolidation import reconsolidation_record
from benchmarks.records import target
from benchmarks.suite import (
    PLANS,
    BenchmarkError,
    Job,
    benchmark_plan,
    job_run,
    postgres_check,
    summary_rows,
    table_format,
    table_notes,
    table_rows,
)
from common.principal import principal_context
from memory.models import Belief

# -- sample records -----------------------------------------------------------------


def recall_sample(p95, ranked_p95, *, size=100_000, peak=90.0):
    return {
        "schema": 1,
        "benchmark": "recall",
        "figures": [
            {
                "name": f"selector p95 at {size:,}/principal",
                "unit": "ms",
                "value": p95,
                "baseline": {"name": "unindexed ranked", "unit": "ms", "value": ranked_p95},
                "ratio": {"name": "unindexed ranked p95 / selector p95", "value": ranked_p95 / p95},
                "target": target(
                    "<= 20 ms at 100,000/principal",
                    "<=",
                    20.0,
                    p95,
                    applicable=size >= 100_000,
                    why="" if size >= 100_000 else "only judged at 100,000 beliefs/principal",
                ),
            }
        ],
        "peak_memory": {"mib": peak, "of": "benchmark_recall process (ru_maxrss)"},
        "details": {},
    }


def formation_sample(rate, ingest, *, peak=80.0):
    ratio = ingest / rate
    return {
        "schema": 1,
        "benchmark": "formation",
        "figures": [
            {
                "name": "formation throughput, one worker",
                "unit": "msg/s",
                "value": rate,
                "baseline": {"name": "ingest", "unit": "msg/s", "value": ingest},
                "ratio": {
                    "name": "formation cost / ingest cost",
                    "value": ratio,
                    "target": target("cost <= 3x", "<=", 3.0, ratio),
                },
                "target": target(">= 1,000 msg/s", ">=", 1000, rate),
            }
        ],
        "peak_memory": {"mib": peak, "of": "benchmark_formation process (ru_maxrss)"},
        "details": {},
    }


def load_sample(rps, p99, errors=0, *, peak=170.0):
    return {
        "schema": 1,
        "benchmark": "load",
        "figures": [
            {
                "name": "recall throughput",
                "unit": "req/s",
                "value": rps,
                "baseline": None,
                "ratio": None,
                "target": target(">= 300 req/s", ">=", 300.0, rps),
            },
            {
                "name": "recall p99",
                "unit": "ms",
                "value": p99,
                "baseline": None,
                "ratio": None,
                "target": target("< 100 ms", "<", 100.0, p99),
            },
            {
                "name": "errors, all operations",
                "unit": "",
                "value": errors,
                "baseline": None,
                "ratio": None,
                "target": target("0", "==", 0, errors),
            },
        ],
        "baseline_note": "none: the load benchmark runs no baseline in the same run",
        "peak_memory": {"mib": peak, "of": "gunicorn master + 2 workers"},
        "details": {},
    }


# -- medians and verdicts -----------------------------------------------------------


def test_a_row_shows_the_median_of_the_runs_with_their_range():
    records = [recall_sample(12.0, 150.0), recall_sample(10.0, 90.0), recall_sample(11.0, 120.0)]

    (row,) = summary_rows("recall", records)

    assert (row["median"], row["min"], row["max"], row["runs"]) == (11.0, 10.0, 12.0, 3)
    assert row["baseline"]["median"] == 120.0
    # The median of the runs' ratios, not the ratio of the medians (120 / 11).
    assert row["ratio"]["median"] == pytest.approx(120.0 / 11.0)


def test_the_ratio_is_the_median_of_each_runs_own_ratio():
    records = [recall_sample(10.0, 100.0), recall_sample(20.0, 100.0), recall_sample(5.0, 100.0)]

    (row,) = summary_rows("recall", records)

    assert row["ratio"]["median"] == pytest.approx(10.0)
    assert row["median"] == 10.0


def test_the_verdict_is_judged_on_the_median_not_on_any_single_run():
    one_slow_run = [recall_sample(18.0, 150.0), recall_sample(25.0, 150.0), recall_sample(19.0, 1)]
    mostly_slow = [recall_sample(21.0, 150.0), recall_sample(25.0, 150.0), recall_sample(19.0, 1)]

    assert summary_rows("recall", one_slow_run)[0]["verdict"] == "PASS"
    assert summary_rows("recall", mostly_slow)[0]["verdict"] == "FAIL"


def test_a_target_stated_for_a_larger_bank_is_not_applicable_and_the_notes_say_why():
    records = {"recall": [recall_sample(9.0, 25.0, size=10_000)] * 3}

    rows = table_rows(records)

    assert rows[0]["verdict"] == "n/a"
    assert "n/a" in table_format(rows).splitlines()[2].split()
    assert "recall: target n/a, only judged at 100,000 beliefs/principal" in table_notes(
        records, rows
    )


def test_a_benchmark_without_a_same_run_baseline_says_none_and_invents_no_ratio():
    records = {"load": [load_sample(120.0, 260.0), load_sample(125.0, 250.0)]}

    rows = table_rows(records)

    assert [row["figure"] for row in rows] == [
        "recall throughput",
        "recall p99",
        "errors, all operations",
    ]
    assert all(row["baseline"] is None and row["ratio"] is None for row in rows)
    first = table_format(rows).splitlines()[2]
    assert "none" in first.split()
    assert any(note.startswith("load: baseline none") for note in table_notes(records, rows))


def test_each_load_figure_is_judged_against_its_own_target():
    rows = table_rows({"load": [load_sample(320.0, 120.0, 0)] * 3})

    assert [row["verdict"] for row in rows] == ["PASS", "FAIL", "PASS"]


def test_a_two_part_target_fails_when_either_part_fails_and_the_notes_say_which():
    slow = {"formation": [formation_sample(600.0, 480.0)] * 3}
    costly = {"formation": [formation_sample(1200.0, 4800.0)] * 3}
    both = {"formation": [formation_sample(1200.0, 1000.0)] * 3}

    slow_rows = table_rows(slow)
    assert slow_rows[0]["verdict"] == "FAIL"
    assert "formation: >= 1,000 msg/s FAIL, cost <= 3x PASS" in table_notes(slow, slow_rows)
    assert table_rows(costly)[0]["verdict"] == "FAIL"
    assert table_rows(both)[0]["verdict"] == "PASS"


def test_peak_memory_is_the_largest_of_the_runs_and_shown_once_per_benchmark():
    records = {"load": [load_sample(120.0, 250.0, peak=p) for p in (150.0, 190.5, 170.0)]}

    rows = table_rows(records)

    assert [row["peak_memory_mib"] for row in rows] == [190.5, None, None]


def test_the_table_has_a_header_a_rule_and_one_line_per_figure():
    records = {
        "recall": [recall_sample(16.9, 149.0)] * 3,
        "load": [load_sample(122.6, 259.2)] * 3,
        "formation": [formation_sample(599.0, 487.0)] * 3,
    }

    lines = table_format(table_rows(records)).splitlines()

    assert lines[0].split()[:3] == ["benchmark", "figure", "unit"]
    assert set(lines[1]) == {"-"}
    assert len(lines) == 2 + 1 + 3 + 1
    recall_line = lines[2]
    for cell in ("16.9", "149 unindexed ranked", "8.82x", "PASS", "90.0"):
        assert cell in recall_line
    formation_line = lines[-1]
    for cell in ("599", "487 ingest", "0.81x", ">= 1,000 msg/s; cost <= 3x", "FAIL"):
        assert cell in formation_line


# -- plans --------------------------------------------------------------------------


def test_quick_uses_small_sizes_and_keeps_the_recall_bank():
    jobs = {job.label: job for job in benchmark_plan("all", "quick")}

    assert list(jobs) == ["recall", "load", "formation", "reconsolidation"]
    assert jobs["recall"].args == ("--sizes", "10000", "--queries", "100", "--reuse")
    assert jobs["load"].args == ("--duration", "5")
    assert jobs["formation"].args == ("--sessions", "200")


def test_full_keeps_a_recall_bank_per_size_and_grows_the_larger_through_the_smaller():
    jobs = benchmark_plan("recall", "full")

    assert [(job.args, job.env["BENCH_DB"]) for job in jobs] == [
        (("--sizes", "10000", "--reuse"), "reverie_bench_10k"),
        (("--sizes", "10000,100000", "--reuse"), "reverie_bench_100k"),
    ]
    assert all(job.env["BENCH_DB"].startswith("reverie_bench") for job in jobs)
    assert benchmark_plan("load", "full")[0].args == ("--duration", "10", "--rounds", "2")
    assert benchmark_plan("formation", "full")[0].args == ("--sessions", "1000")
    assert benchmark_plan("reconsolidation", "full")[0].args == ("--sizes", "10000,100000")


@pytest.mark.parametrize(("benchmark", "mode"), [("latency", "quick"), ("all", "fast")])
def test_an_unknown_benchmark_or_mode_is_refused(benchmark, mode):
    with pytest.raises(BenchmarkError):
        benchmark_plan(benchmark, mode)


# -- the command's arguments and checks ----------------------------------------------


@pytest.fixture
def no_benchmark_runs(monkeypatch):
    """Fail the test, rather than start a real benchmark, if a check lets one through."""

    def refuse(*args, **kwargs):
        raise AssertionError("a benchmark was started")

    monkeypatch.setattr(benchmarking, "job_run", refuse)


@pytest.mark.parametrize(
    "arguments",
    [
        ["latency"],
        ["all", "--quick", "--full"],
        ["all", "--runs", "0"],
        ["all", "--runs", "three"],
    ],
)
def test_the_command_rejects_bad_arguments(no_benchmark_runs, arguments):
    with pytest.raises(CommandError):
        call_command("benchmark", *arguments)


def _closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_command_refuses_when_postgresql_cannot_be_reached(no_benchmark_runs, monkeypatch):
    monkeypatch.setenv("PGHOST", "127.0.0.1")
    monkeypatch.setenv("PGPORT", str(_closed_port()))

    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("benchmark", "all", "--quick")


def test_the_check_names_missing_client_tools(tmp_path):
    env = {"PATH": str(tmp_path), "PGHOST": "127.0.0.1", "PGPORT": "5432", "PGUSER": "reverie"}

    with pytest.raises(BenchmarkError, match="psql, createdb not found"):
        postgres_check(env)


# -- running a script (stand-ins, not benchmarks) -------------------------------------


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def _writes_record(tmp_path, record):
    """A stand-in benchmark script that writes ``record`` to the path after --json-out."""
    (tmp_path / "record.json").write_text(json.dumps(record))
    return _script(
        tmp_path / "bench.sh",
        'echo "figures for people"\n'
        'while [ "$1" != --json-out ]; do shift; done\n'
        f'cp {tmp_path / "record.json"} "$2"\n',
    )


def test_a_run_returns_the_record_its_script_wrote_and_keeps_its_output(tmp_path):
    job = Job("recall", "recall", _writes_record(tmp_path, recall_sample(9.0, 20.0)))

    record = job_run(job, run=1, out_dir=tmp_path / "out", env={}, cwd=tmp_path)

    assert record["figures"][0]["value"] == 9.0
    assert (tmp_path / "out" / "recall-1.log").read_text() == "figures for people\n"


def test_a_failing_script_is_reported_with_the_end_of_its_output(tmp_path):
    job = Job("load", "load", _script(tmp_path / "fails.sh", "echo 'createdb: denied'\nexit 3\n"))

    with pytest.raises(BenchmarkError, match=r"(?s)load run 1 failed \(exit 3\).*createdb: denied"):
        job_run(job, run=1, out_dir=tmp_path, env={}, cwd=tmp_path)


def test_a_record_left_by_an_earlier_invocation_does_not_stand_in_for_this_run(tmp_path):
    (tmp_path / "formation-1.json").write_text(json.dumps(formation_sample(600.0, 480.0)))
    job = Job("formation", "formation", _script(tmp_path / "silent.sh", "exit 0\n"))

    with pytest.raises(BenchmarkError, match="left no readable record"):
        job_run(job, run=1, out_dir=tmp_path, env={}, cwd=tmp_path)


def test_a_record_in_another_format_is_refused(tmp_path):
    job = Job("recall", "recall", _writes_record(tmp_path, {"p95": 9.0}))

    with pytest.raises(BenchmarkError, match="cannot read"):
        job_run(job, run=1, out_dir=tmp_path / "out", env={}, cwd=tmp_path)


def test_the_command_prints_one_table_and_writes_it_as_json(
    tmp_path, monkeypatch, capsys, settings
):
    stand_in = Job("recall", "recall", _writes_record(tmp_path, recall_sample(12.0, 30.0)))
    monkeypatch.setitem(PLANS["quick"], "recall", (stand_in,))
    monkeypatch.setattr(benchmarking, "postgres_check", lambda env: None)
    settings.VAR_DIR = tmp_path / "var"
    summary = tmp_path / "summary.json"

    call_command("benchmark", "recall", "--quick", "--runs", "2", "--json-out", str(summary))

    out = capsys.readouterr().out
    assert out.startswith("benchmark recall --quick: median of 2 runs each")
    assert out.count("selector p95 at 100,000/principal") == 1
    assert f"- each run's record and output: {tmp_path / 'var' / 'benchmarks'}/" in out
    assert (tmp_path / "var" / "benchmarks" / "recall-2.json").is_file()
    written = json.loads(summary.read_text())
    assert written["rows"][0]["median"] == 12.0
    assert len(written["records"]["recall"]) == 2


# -- the records the benchmarks write ------------------------------------------------


SERVER = {"version": "15", "shared_buffers": "128MB"}


def _timing(p95):
    return {"p50": p95 / 2, "p95": p95, "mean": p95 / 2, "items": 10.0}


def _recall_results(size, p95, ranked_p95, meaning_p95=None):
    meaning = None if meaning_p95 is None else _timing(meaning_p95)
    return SizeResult(
        size,
        BankCounts(size * 10, size * 9, size / 100),
        _timing(p95),
        _timing(p95),
        _timing(ranked_p95),
        1.0,
        meaning,
        None if meaning is None else _timing(meaning_p95 + 30),
    )


def _recall_options(sizes):
    return {
        "sizes": sizes,
        "principals": 10,
        "queries": 100,
        "warmup": 100,
        "seed": 7,
        "limit": 10,
        "reuse": True,
    }


def test_the_recall_record_does_not_judge_a_bank_smaller_than_the_targets():
    record = recall_record(
        SERVER, True, _recall_options([10_000]), [_recall_results(10_000, 9, 25)]
    )

    target_ = record["figures"][0]["target"]
    assert (target_["applicable"], target_["met"]) == (False, None)


def test_the_recall_record_judges_the_largest_bank_against_the_ranked_baseline():
    results = [_recall_results(10_000, 30, 60), _recall_results(100_000, 16.9, 149.0)]

    (figure,) = recall_record(SERVER, True, _recall_options([10_000, 100_000]), results)["figures"]

    assert figure["value"] == 16.9
    assert figure["baseline"]["value"] == 149.0
    assert figure["ratio"]["value"] == pytest.approx(149.0 / 16.9)
    assert (figure["target"]["applicable"], figure["target"]["met"]) == (True, True)


def test_the_recall_record_gives_the_search_by_meaning_at_every_size_unjudged():
    results = [_recall_results(10_000, 4, 60, 12.0), _recall_results(100_000, 9, 149.0, 95.0)]

    judged, *meaning = recall_record(SERVER, True, _recall_options([10_000, 100_000]), results)[
        "figures"
    ]

    assert judged["value"] == 9
    assert [(f["name"], f["value"], f["target"]) for f in meaning] == [
        ("search by meaning p95 at 10,000/principal", 12.0, None),
        ("search by meaning p95 at 100,000/principal", 95.0, None),
    ]
    assert meaning[1]["baseline"]["value"] == 9


def test_the_formation_record_compares_the_sweep_with_ingest_of_the_same_run():
    rss = Namespace(start=70 * 2**20, peak=82 * 2**20)
    options = {
        "sessions": 1000,
        "messages": 10,
        "principals": 100,
        "seed": 7,
        "workers": 1,
        "round": 100,
    }

    measured = {
        "messages": 10_000,
        "ingest_seconds": 20.0,
        "bare_seconds": 8.0,
        "formation_seconds": 16.0,
        "formed": 3299,
        "embedded": 3200,
        "embedding_seconds": 128.0,
    }

    record = formation_record(options, measured, {}, rss, "formation@2")

    figure, append = record["figures"]
    assert (figure["value"], figure["baseline"]["value"]) == (625.0, 500.0)
    assert figure["ratio"]["value"] == 0.8
    assert figure["target"]["met"] is False
    assert figure["ratio"]["target"]["met"] is True
    assert (append["value"], append["baseline"]["value"]) == (500.0, 1250.0)
    assert append["ratio"]["value"] == 2.5
    assert append["ratio"]["target"]["met"] is False
    assert record["peak_memory"]["mib"] > 0
    # The vector sweep's rate beside formation's, and how long a minute of formation waits.
    embedding = record["details"]["embedding"]
    assert embedding["memories_embedded_per_second"] == 25.0
    assert embedding["seconds_to_embed_a_minute_of_formation"] == pytest.approx(
        60 * (3299 / 16.0) / 25.0
    )


def test_the_reconsolidation_record_judges_the_larger_pass_against_the_smaller():
    def row(size, seconds):
        return {"size": size, "seconds": seconds, "passes": 1, "merged": 1, "peak_mib": size / 1000}

    record = reconsolidation_record([row(10_000, 1.0), row(100_000, 13.0)], 7)
    (figure,) = record["figures"]
    assert (figure["value"], figure["baseline"]["value"], figure["ratio"]["value"]) == (
        13.0,
        1.0,
        13.0,
    )
    assert figure["ratio"]["target"]["met"] is False
    assert (figure["target"]["applicable"], figure["target"]["met"]) == (True, True)
    assert record["peak_memory"]["mib"] == 100.0

    small = reconsolidation_record([row(2_000, 0.2), row(20_000, 2.0)], 7)["figures"][0]
    assert (small["target"]["applicable"], small["ratio"]["target"]["met"]) == (False, True)


def _load_args(**overrides):
    return Namespace(
        **{
            "operations": ["healthz", "memory", "recall"],
            "clients": [16],
            "rounds": 1,
            "duration": 10.0,
            "warmup": 2.0,
            "limit": 0,
            "seed": 7,
            "server_info": "",
            **overrides,
        }
    )


def _recorded(recorder, op, clients, latencies, status=200, window=10.0):
    for seconds in latencies:
        recorder.add((op, clients), seconds, status)
    recorder.seconds[(op, clients)] += window


def test_the_load_record_shows_recall_against_healthz_on_the_same_server():
    recorder = Recorder()
    _recorded(recorder, "healthz", 16, [0.002] * 1000)
    _recorded(recorder, "memory", 16, [0.01] * 500)
    _recorded(recorder, "recall", 16, [0.05] * 299)
    _recorded(recorder, "recall", 16, [0.2], status=500, window=0.0)
    fixture = {"postgresql": "15", "leakproof": True}

    record = load_record(_load_args(), fixture, recorder, {}, None)

    figures = {figure["name"]: figure for figure in record["figures"]}
    assert [figure["name"] for figure in record["figures"][:4]] == [
        "recall CPU per request, 16 clients",
        "recall p99, 16 clients",
        "recall p50, 1 client",
        "errors, all operations",
    ]
    recall = figures["recall throughput, 16 clients"]
    assert (recall["value"], recall["baseline"]["value"]) == (30.0, 100.0)
    assert recall["ratio"]["value"] == pytest.approx(0.3)
    p99 = figures["recall p99, 16 clients"]
    assert (p99["value"], p99["target"]["met"]) == (50.0, True)
    healthz = figures["healthz throughput, 16 clients"]
    assert healthz["baseline"] is None and healthz["target"] is None
    memory = figures["memory throughput, 16 clients"]
    assert memory["ratio"]["value"] == pytest.approx(0.5) and memory["ratio"]["target"] is None
    errors = figures["errors, all operations"]
    assert (errors["value"], errors["target"]["met"]) == (1, False)
    assert record["peak_memory"]["of"].startswith("load generator")
    json.dumps(record)


def test_a_load_run_without_recall_at_16_clients_or_alone_fails_its_targets():
    # A run that leaves out the judged phases must not pass by having nothing to judge.
    recorder = Recorder()
    _recorded(recorder, "healthz", 64, [0.002] * 1000)
    _recorded(recorder, "recall", 64, [0.004] * 1000)

    record = load_record(
        _load_args(clients=[64]), {"postgresql": "15", "leakproof": True}, recorder, {}, None
    )

    cpu, p99, alone = record["figures"][:3]
    assert cpu["value"] is None and cpu["target"]["met"] is False
    assert p99["value"] is None and p99["target"]["met"] is False
    assert alone["value"] is None and alone["target"]["met"] is False


def test_a_kept_recall_bank_skips_the_sizes_below_what_it_already_holds(owner, other_owner):
    for principal, count in ((owner, 3), (other_owner, 1)):
        with principal_context(principal):
            Belief.objects.bulk_create(
                Belief(
                    owner=principal,
                    type="fact",
                    subject=f"topic:{index}",
                    statement=f"Fact {index}.",
                    authority="explicit",
                    status="active",
                    confidence=1,
                )
                for index in range(count)
            )
    progress = []

    assert sizes_left([owner, other_owner], [2, 3, 5], progress=progress.append) == [3, 5]
    assert progress == ["skipping 2/principal: the kept bank holds 3 already"]
    with pytest.raises(BenchmarkError, match="only grows a bank"):
        sizes_left([owner, other_owner], [1, 2], progress=progress.append)
