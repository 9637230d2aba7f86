"""Run the benchmarks several times and reduce them to one table.

Each benchmark script (``benchmarks/run_*.sh``) creates, migrates and seeds its own
PostgreSQL database, and writes one JSON record per run with ``--json-out`` (the
format of ``benchmarks/records.py``). This module plans the runs, starts the scripts
one after another, and reduces their records to rows: per figure, the median over the
runs with its minimum and maximum, the median same-run baseline and ratio, the verdict
judged on those medians, and the peak memory over all runs.

Seeded data is cached between runs and between invocations: the recall banks grow with
``--reuse`` in a database per size, the load database keeps its principals, and only
the formation benchmark seeds afresh each time, because seeding is what it measures
its baseline on.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from benchmarks.records import SCHEMA, Figure, Record, Target, target_met

BENCHMARKS = ("recall", "load", "formation", "reconsolidation")
MODES = ("quick", "full")
NONE = "none"
DASH = "-"


class BenchmarkError(Exception):
    """A benchmark could not run, or ran without leaving a record."""


@dataclass(frozen=True)
class Job:
    """One benchmark script with its arguments, run ``--runs`` times."""

    benchmark: str
    label: str
    script: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.label.replace(" ", "-")

    def command(self, json_out: str | Path) -> list[str]:
        return [self.script, *self.args, "--json-out", str(json_out)]


# Each recall bank lives in its own database so that --reuse can keep it: a bank only
# grows, so one grown to 100,000 beliefs per principal can't be timed at 10,000 again.
# --quick and --full share the 10,000 bank. The 100,000 bank is grown through 10,000, as
# benchmark_recall grows it by default, so that its rows lie as in the figures documented
# so far (seeded straight to 100,000, the icontains baseline's p95 was about 90 ms instead
# of 4). Once grown, its runs skip 10,000 and time 100,000 only.
_RECALL_10K = {"BENCH_DB": "reverie_bench_10k"}
_RECALL_100K = {"BENCH_DB": "reverie_bench_100k"}

PLANS: dict[str, dict[str, tuple[Job, ...]]] = {
    "quick": {
        "recall": (
            Job(
                "recall",
                "recall",
                "benchmarks/run_recall.sh",
                ("--sizes", "10000", "--queries", "100", "--reuse"),
                _RECALL_10K,
            ),
        ),
        "load": (Job("load", "load", "benchmarks/run_load.sh", ("--duration", "5")),),
        "formation": (
            Job("formation", "formation", "benchmarks/run_formation.sh", ("--sessions", "200")),
        ),
        "reconsolidation": (
            Job(
                "reconsolidation",
                "reconsolidation",
                "benchmarks/run_reconsolidation.sh",
                ("--sizes", "5000,50000"),
            ),
        ),
    },
    "full": {
        "recall": (
            Job(
                "recall",
                "recall 10k",
                "benchmarks/run_recall.sh",
                ("--sizes", "10000", "--reuse"),
                _RECALL_10K,
            ),
            Job(
                "recall",
                "recall 100k",
                "benchmarks/run_recall.sh",
                ("--sizes", "10000,100000", "--reuse"),
                _RECALL_100K,
            ),
        ),
        "load": (
            Job("load", "load", "benchmarks/run_load.sh", ("--duration", "10", "--rounds", "2")),
        ),
        "formation": (
            Job("formation", "formation", "benchmarks/run_formation.sh", ("--sessions", "1000")),
        ),
        "reconsolidation": (
            Job(
                "reconsolidation",
                "reconsolidation",
                "benchmarks/run_reconsolidation.sh",
                ("--sizes", "10000,100000"),
            ),
        ),
    },
}


def benchmark_plan(benchmark: str, mode: str) -> list[Job]:
    """The jobs of ``benchmark`` (one of BENCHMARKS, or "all") in ``mode``."""
    if mode not in MODES:
        raise BenchmarkError(f"Unknown mode {mode!r}: use one of {', '.join(MODES)}.")
    chosen: tuple[str, ...]
    if benchmark == "all":
        chosen = BENCHMARKS
    elif benchmark in BENCHMARKS:
        chosen = (benchmark,)
    else:
        raise BenchmarkError(
            f"Unknown benchmark {benchmark!r}: use all or one of {', '.join(BENCHMARKS)}."
        )
    return [job for name in chosen for job in PLANS[mode][name]]


# -- running -------------------------------------------------------------------------


def benchmark_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The scripts' environment: the caller's, with their PostgreSQL defaults made explicit
    and this interpreter as their Python."""
    env = dict(os.environ if base is None else base)
    env.setdefault("PGHOST", "127.0.0.1")
    env.setdefault("PGPORT", "5432")
    env.setdefault("PGUSER", "reverie_owner")
    env.setdefault("PYTHON", sys.executable)
    return env


def postgres_check(env: Mapping[str, str], *, timeout: float = 15) -> None:
    """Refuse early, with the reason, unless the scripts can reach PostgreSQL with ``env``."""
    where = f"{env.get('PGUSER')}@{env.get('PGHOST')}:{env.get('PGPORT')}"
    missing = [
        tool for tool in ("psql", "createdb") if not shutil.which(tool, path=env.get("PATH"))
    ]
    if missing:
        raise BenchmarkError(
            f"The benchmarks need PostgreSQL's client tools ({', '.join(missing)} not found on "
            "PATH); see docs/benchmarks.md."
        )
    try:
        completed = subprocess.run(
            ["psql", "-w", "-d", "postgres", "-tAc", "SELECT 1"],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        raise BenchmarkError(
            f"PostgreSQL at {where} did not answer within {timeout} s; the benchmarks need it "
            "(set PGHOST, PGPORT and PGUSER; see docs/benchmarks.md)."
        ) from exc
    if completed.returncode != 0 or completed.stdout.strip() != "1":
        reason = (completed.stderr or completed.stdout).strip().splitlines()
        raise BenchmarkError(
            f"Cannot reach PostgreSQL at {where} with psql"
            + (f" ({reason[0]})" if reason else "")
            + "; the benchmarks only run on PostgreSQL (set PGHOST, PGPORT and PGUSER; "
            "see docs/benchmarks.md)."
        )


def job_run(
    job: Job,
    *,
    run: int,
    out_dir: str | Path,
    env: Mapping[str, str],
    cwd: str | Path,
    echo: Callable[[str], object] | None = None,
) -> Record:
    """Run ``job`` once and return its record. Its output goes to ``<out_dir>/<slug>-<run>.log``
    (and to ``echo`` too, when given)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    json_out = (out_dir / f"{job.slug}-{run}.json").resolve()
    log = out_dir / f"{job.slug}-{run}.log"
    # A record left by an earlier invocation must not stand in for this run's.
    json_out.unlink(missing_ok=True)
    tail: deque[str] = deque(maxlen=15)
    with log.open("w") as handle:
        process = subprocess.Popen(
            job.command(json_out),
            cwd=cwd,
            env={**env, **job.env},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        # stdout=PIPE: the process always has one.
        assert process.stdout is not None
        for line in process.stdout:
            handle.write(line)
            tail.append(line)
            if echo is not None:
                echo(line.rstrip("\n"))
        returncode = process.wait()
    if returncode != 0:
        raise BenchmarkError(
            f"{job.label} run {run} failed (exit {returncode}); log: {log}\n" + "".join(tail)
        )
    try:
        record: Record = json.loads(json_out.read_text())
    except (OSError, ValueError) as exc:
        raise BenchmarkError(
            f"{job.label} run {run} left no readable record at {json_out}"
        ) from exc
    if record.get("schema") != SCHEMA or not record.get("figures"):
        raise BenchmarkError(
            f"{job.label} run {run} wrote a record this command cannot read ({json_out}): "
            f"expected schema {SCHEMA} with figures"
        )
    return record


def benchmarks_run(
    jobs: Iterable[Job],
    *,
    runs: int,
    out_dir: str | Path,
    env: Mapping[str, str],
    cwd: str | Path,
    progress: Callable[[str], object] | None = None,
    echo: Callable[[str], object] | None = None,
) -> dict[str, list[Record]]:
    """Run every job ``runs`` times, one after another; {job label: [record, ...]}."""
    progress = progress or (lambda message: None)
    records: dict[str, list[Record]] = {}
    for job in jobs:
        records[job.label] = []
        for run in range(1, runs + 1):
            shown = [*(f"{name}={value}" for name, value in job.env.items()), job.script, *job.args]
            progress(f"{job.label} run {run}/{runs}: {' '.join(shown)}")
            started = time.monotonic()
            records[job.label].append(
                job_run(job, run=run, out_dir=out_dir, env=env, cwd=cwd, echo=echo)
            )
            progress(f"{job.label} run {run}/{runs} done in {time.monotonic() - started:.0f} s")
    return records


def suite_run(
    benchmark: str,
    mode: str,
    *,
    runs: int,
    out_dir: str | Path,
    env: Mapping[str, str],
    cwd: str | Path,
    progress: Callable[[str], object] | None = None,
    echo: Callable[[str], object] | None = None,
) -> dict[str, list[Record]]:
    """Plan ``benchmark`` (one of BENCHMARKS, or "all") in ``mode``, refuse unless the
    scripts can reach PostgreSQL, and run each job ``runs`` times: {job label: [record, ...]}."""
    jobs = benchmark_plan(benchmark, mode)
    postgres_check(env)
    return benchmarks_run(
        jobs, runs=runs, out_dir=out_dir, env=env, cwd=cwd, progress=progress, echo=echo
    )


# -- reducing ------------------------------------------------------------------------


class RowBaseline(TypedDict):
    """A row's same-run baseline: its median over the runs."""

    name: str
    unit: str
    median: float | None


class RowRatio(TypedDict):
    """A row's ratio to its baseline: its median over the runs."""

    name: str
    median: float | None


class Row(TypedDict):
    """One row of the table: a figure over a job's runs, judged on its medians."""

    benchmark: str
    figure: str
    unit: str
    runs: int
    median: float | None
    min: float | None
    max: float | None
    baseline: RowBaseline | None
    ratio: RowRatio | None
    target: Target | None
    ratio_target: Target | None
    verdict: str
    value_verdict: str
    ratio_verdict: str
    peak_memory_mib: float | None


def _median(values: Iterable[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


def _baseline_value(figure: Figure) -> float | None:
    baseline = figure.get("baseline")
    return baseline["value"] if baseline else None


def _ratio_value(figure: Figure) -> float | None:
    ratio = figure.get("ratio")
    return ratio["value"] if ratio else None


def target_verdict(target: Target | None, value: float | None) -> str:
    """PASS or FAIL for ``value`` against ``target``; n/a when the target does not apply to
    this run; "-" when there is no target. No figure at all does not meet a target."""
    if not target:
        return DASH
    if not target.get("applicable", True):
        return "n/a"
    if value is None:
        return "FAIL"
    return "PASS" if target_met(target["op"], target["value"], value) else "FAIL"


def combined_verdict(verdicts: Collection[str]) -> str:
    """One verdict for a row whose figure and ratio may both have targets."""
    for verdict in ("FAIL", "PASS", "n/a"):
        if verdict in verdicts:
            return verdict
    return DASH


def summary_rows(label: str, records: Sequence[Record]) -> list[Row]:
    """The rows of one job: one per figure its records name, judged on the medians."""
    if not records:
        raise BenchmarkError(f"{label}: no records to summarise")
    rows: list[Row] = []
    for index, figure in enumerate(records[0]["figures"]):
        figures = [record["figures"][index] for record in records]
        values = [f["value"] for f in figures if f["value"] is not None]
        median = _median(values)
        baseline = figure.get("baseline")
        ratio = figure.get("ratio")
        ratio_median = _median([_ratio_value(f) for f in figures]) if ratio else None
        value_verdict = target_verdict(figure.get("target"), median)
        ratio_verdict = target_verdict(ratio.get("target"), ratio_median) if ratio else DASH
        rows.append(
            {
                "benchmark": label,
                "figure": figure["name"],
                "unit": figure.get("unit", ""),
                "runs": len(figures),
                "median": median,
                "min": min(values) if values else None,
                "max": max(values) if values else None,
                "baseline": (
                    {
                        "name": baseline["name"],
                        "unit": baseline.get("unit", ""),
                        "median": _median([_baseline_value(f) for f in figures]),
                    }
                    if baseline
                    else None
                ),
                "ratio": {"name": ratio["name"], "median": ratio_median} if ratio else None,
                "target": figure.get("target"),
                "ratio_target": ratio.get("target") if ratio else None,
                "verdict": combined_verdict({value_verdict, ratio_verdict}),
                "value_verdict": value_verdict,
                "ratio_verdict": ratio_verdict,
                # Memory belongs to the run, not to one figure: shown once per job.
                "peak_memory_mib": (
                    max(record["peak_memory"]["mib"] for record in records) if index == 0 else None
                ),
            }
        )
    return rows


def table_rows(records_by_label: Mapping[str, Sequence[Record]]) -> list[Row]:
    return [
        row for label, records in records_by_label.items() for row in summary_rows(label, records)
    ]


def number(value: float | None) -> str:
    """About three significant figures, with thousands separators: 9.23, 16.9, 149, 1,234."""
    if value is None:
        return "?"
    if isinstance(value, int) or float(value).is_integer() and abs(value) >= 100:
        return f"{value:,.0f}"
    magnitude = abs(value)
    decimals = 2 if magnitude < 10 else 1 if magnitude < 100 else 0
    return f"{value:,.{decimals}f}"


def _target_text(row: Row) -> str:
    texts = [target["text"] for target in (row["target"], row["ratio_target"]) if target]
    return "; ".join(texts) or DASH


TABLE_HEADER = (
    "benchmark",
    "figure",
    "unit",
    "median",
    "min-max",
    "baseline (median)",
    "ratio",
    "target",
    "verdict",
    "peak MiB",
)
_NUMERIC = {3, 4, 6, 9}


def table_cells(row: Row) -> tuple[str, ...]:
    """One row of the table as text cells, in TABLE_HEADER's order."""
    baseline, ratio = row["baseline"], row["ratio"]
    return (
        row["benchmark"],
        row["figure"],
        row["unit"],
        number(row["median"]),
        f"{number(row['min'])}-{number(row['max'])}",
        f"{number(baseline['median'])} {baseline['name']}" if baseline else NONE,
        f"{number(ratio['median'])}x" if ratio else DASH,
        _target_text(row),
        row["verdict"],
        number(row["peak_memory_mib"]) if row["peak_memory_mib"] is not None else "",
    )


def table_format(rows: Iterable[Row]) -> str:
    """The table as text, one line per row, columns padded to fit."""
    lines = [table_cells(row) for row in rows]
    widths = [
        max(len(cells[i]) for cells in (TABLE_HEADER, *lines)) for i in range(len(TABLE_HEADER))
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if i in _NUMERIC else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "-" * len(line(TABLE_HEADER))
    return "\n".join([line(TABLE_HEADER), rule, *(line(cells) for cells in lines)])


def table_notes(records_by_label: Mapping[str, Sequence[Record]], rows: Iterable[Row]) -> list[str]:
    """What the table cannot say in its cells: missing baselines, targets that do not
    apply, which half of a two-part target failed, and whose memory was measured."""
    notes: list[str] = []
    for label, records in records_by_label.items():
        first = records[0]
        if first.get("baseline_note"):
            notes.append(f"{label}: baseline {first['baseline_note']}")
        for figure in first["figures"]:
            target = figure.get("target")
            why = target.get("why") if target else None
            if why:
                notes.append(f"{label}: target n/a, {why}")
        for figure in first["figures"]:
            if ratio := figure.get("ratio"):
                notes.append(f"{label}: ratio = {ratio['name']}")
        notes.append(f"{label}: peak memory of the {first['peak_memory']['of']}, max over runs")
    for row in rows:
        if row["target"] and row["ratio_target"] and row["value_verdict"] != row["ratio_verdict"]:
            notes.append(
                f"{row['benchmark']}: {row['target']['text']} {row['value_verdict']}, "
                f"{row['ratio_target']['text']} {row['ratio_verdict']}"
            )
    # Several figures may share a ratio's name: say it once.
    return list(dict.fromkeys(notes))
