"""Where a recall's CPU goes, measured in one process (``manage.py benchmark_recall_cpu``).

The API load benchmark (benchmarks/load_api.py) judges the server's CPU per recall under
load, gunicorn and PostgreSQL together. This takes the load benchmark's bank and tokens
(the fixture ``manage.py seed_load`` writes) and drives requests through Django's test
client in this process, one at a time, to split a request's cost into its two parts:

- Python: this process's CPU time (``time.process_time``) over the measured loop, the test
  client's share included;
- PostgreSQL: the CPU time of the backend serving this process's one connection, read
  from Linux's ``/proc/<pid>/stat`` before and after the loop. Only a PostgreSQL on this
  machine can be read so; elsewhere, and on SQLite, the figure is left out with the reason.

Recall is measured beside the same run's baselines, ``GET /healthz`` (no authentication,
no database) and ``GET /api/v1/memories/{id}`` (an authenticated read by primary key),
round by round with the operations' order alternated, and each is reported per request.
A recall's query is drawn as the load generator draws it (``benchmarks.load_api.request_for``).
No target: the targets are the load benchmark's, judged under load; this is a diagnostic.
"""

from __future__ import annotations

import cProfile
import itertools
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, TypedDict

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

from benchmarks.load_api import (
    PROXY_HEADERS,
    Fixture,
    FixturePrincipal,
    WordDraw,
    Zipf,
    backend_database,
    clock_ticks,
    proc_stat_parse,
    process_title,
    request_for,
)
from benchmarks.suite import BenchmarkError

Operation = Literal["healthz", "memory", "recall"]
OPERATIONS: tuple[Operation, ...] = ("healthz", "memory", "recall")
WORD_DRAWS = ("zipf", "uniform")


class CpuOptions(TypedDict):
    """What the command was asked for."""

    requests: int
    warmup: int
    rounds: int
    words: str
    seed: int
    profile: int


class PhaseCpu(TypedDict):
    """One operation's measured loop in one round: CPU per request, in ms; PostgreSQL's is
    None where it could not be read."""

    operation: Operation
    round: int
    requests: int
    python_ms: float
    postgres_ms: float | None


class OperationCpu(TypedDict):
    """One operation's medians over the rounds, per request, in ms."""

    operation: Operation
    python_ms: float
    postgres_ms: float | None


class ProfileRow(TypedDict):
    """One function under the profiler, per recall: calls, own time and time with callees."""

    function: str
    calls: float
    own_ms: float
    cumulative_ms: float


class RecallCpu(TypedDict):
    """A run's figures: each phase, the medians, and why PostgreSQL's CPU was not read
    (empty when it was)."""

    phases: list[PhaseCpu]
    medians: dict[Operation, OperationCpu]
    backend_pid: int | None
    postgres_unread: str
    # With --profile: the top functions by time with callees ("cumulative") and by own time.
    profile: dict[str, list[ProfileRow]]


class Uniform:
    """Draw ``k`` distinct words of ``items``, each as likely as any other."""

    def __init__(self, items: Sequence[str]) -> None:
        self.items = list(items)

    def sample(self, rng: random.Random, k: int) -> list[str]:
        return rng.sample(self.items, min(k, len(self.items)))


def word_draw(kind: str, vocabulary: Sequence[str]) -> WordDraw:
    """The load generator's Zipf draw over the vocabulary, or a uniform one."""
    if kind == "zipf":
        return Zipf(vocabulary)
    if kind == "uniform":
        return Uniform(vocabulary)
    raise BenchmarkError(f"Unknown word draw {kind!r}: expected one of {', '.join(WORD_DRAWS)}.")


def fixture_read(path: str | Path, database: str) -> Fixture:
    """The load fixture at ``path``, checked to be for ``database`` and usable here."""
    try:
        fixture: Fixture = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise BenchmarkError(
            f"No load fixture at {path}: seed the load database first "
            "(benchmarks/run_recall_cpu.sh does; see docs/benchmarks.md)."
        ) from None
    except (OSError, ValueError) as exc:
        raise BenchmarkError(f"Cannot read the load fixture {path}: {exc}") from None
    if not isinstance(fixture, dict) or fixture.get("database") != database:
        written_for = fixture.get("database") if isinstance(fixture, dict) else None
        raise BenchmarkError(
            f"The load fixture {path} was written for the database {written_for!r}, "
            f"not {database!r}: its tokens are that database's."
        )
    principals = fixture.get("principals") or []
    if not principals or not all(p.get("token") and p.get("memory_ids") for p in principals):
        raise BenchmarkError(f"The load fixture {path} has no principal with a token and memories.")
    if not fixture.get("vocabulary"):
        raise BenchmarkError(f"The load fixture {path} has no vocabulary to draw queries from.")
    return fixture


# -- PostgreSQL's share: the backend's CPU from /proc -----------------------------------


def _proc_stat(pid: int) -> tuple[str, int, int]:
    return proc_stat_parse(Path(f"/proc/{pid}/stat").read_text())


def backend_ticks(pid: int) -> int:
    """The CPU ticks (user + system) a process has used, from ``/proc/<pid>/stat``."""
    return _proc_stat(pid)[2]


class Backend:
    """The PostgreSQL backend serving ``connection``, whose CPU is read before and after
    each loop; ``unread`` says why it cannot be (empty when it can)."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        self.connection = connection
        self.pid: int | None = None
        self.unread = ""
        if connection.vendor != "postgresql":
            self.unread = f"the database is {connection.display_name}, not PostgreSQL"
            return
        pid = self._pid()
        database = connection.settings_dict["NAME"]
        try:
            comm = _proc_stat(pid)[0]
        except (OSError, ValueError, IndexError):
            comm = ""
        # A pid of another machine's PostgreSQL may name some process of this one: the
        # backend is ours only if its title says it serves this database.
        if comm != "postgres" or backend_database(process_title(pid)) != database:
            self.unread = (
                f"backend pid {pid} is not a process of this machine serving {database}: "
                "PostgreSQL runs elsewhere, and its CPU is read from this machine's /proc"
            )
            return
        self.pid = pid

    def _pid(self) -> int:
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return int(cursor.fetchone()[0])

    def ticks(self) -> int | None:
        """The backend's ticks so far; None when they cannot be read, or when the connection
        is no longer served by the backend first read (the figure would mix two)."""
        if self.pid is None:
            return None
        if self._pid() != self.pid:
            self.unread = f"the connection moved off backend {self.pid} during the run"
            self.pid = None
            return None
        try:
            return backend_ticks(self.pid)
        except (OSError, ValueError, IndexError) as exc:
            self.unread = f"/proc/{self.pid}/stat could not be read: {exc}"
            self.pid = None
            return None


# -- the requests ------------------------------------------------------------------------


def _host() -> str:
    """A host name the settings accept, for the Host header."""
    if not settings.ALLOWED_HOSTS:
        raise BenchmarkError("ALLOWED_HOSTS is empty: no request would be accepted.")
    host: str = settings.ALLOWED_HOSTS[0]
    # "*" accepts any host; ".example.com" accepts example.com and its subdomains.
    return "localhost" if host == "*" else host.removeprefix(".")


class Requests:
    """Sends one request of an operation through Django's test client, as the load
    generator would over HTTP: the principals' tokens in turn, the proxy's header, and each
    operation's draws from its own seeded stream (so that one operation's requests do not
    depend on how many of another's ran)."""

    def __init__(self, fixture: Fixture, words: WordDraw, seed: int) -> None:
        self.client = Client(headers={"Host": _host(), **PROXY_HEADERS})
        self.principals: list[FixturePrincipal] = fixture["principals"]
        self.words = words
        self.turns = {op: itertools.count() for op in OPERATIONS}
        self.rngs = {op: random.Random(f"reverie-recall-cpu:{seed}:{op}") for op in OPERATIONS}

    def send(self, op: Operation) -> None:
        turn = next(self.turns[op])
        principal = self.principals[turn % len(self.principals)]
        method, path, body = request_for(op, self.rngs[op], principal, self.words, 0)
        headers = {"Authorization": f"Bearer {principal['token']}"}
        if method == "GET":
            response = self.client.get(path, headers=headers)
        else:
            response = self.client.post(
                path, body, content_type="application/json", headers=headers
            )
        if response.status_code != 200:
            hint = ""
            if response.status_code == 301:
                hint = (
                    " (production settings redirect plain HTTP: set REVERIE_BEHIND_TLS_PROXY=1, "
                    "as benchmarks/run_recall_cpu.sh does)"
                )
            elif response.status_code == 401:
                hint = " (the fixture's tokens are replaced each time seed_load runs)"
            raise BenchmarkError(
                f"{method} {path} answered {response.status_code}{hint}: "
                f"{response.content[:200].decode(errors='replace')}"
            )


# -- the measurement ---------------------------------------------------------------------


def phase_measure(
    requests: Requests, backend: Backend, op: Operation, *, count: int, warmup: int, round_: int
) -> PhaseCpu:
    """``warmup`` requests of ``op`` uncounted, then ``count`` measured."""
    for _ in range(warmup):
        requests.send(op)
    before = backend.ticks()
    started = time.process_time()
    for _ in range(count):
        requests.send(op)
    python = time.process_time() - started
    after = backend.ticks()
    postgres = None
    if before is not None and after is not None:
        postgres = 1000.0 * (after - before) / clock_ticks() / count
    return {
        "operation": op,
        "round": round_,
        "requests": count,
        "python_ms": 1000.0 * python / count,
        "postgres_ms": postgres,
    }


def medians(phases: Sequence[PhaseCpu]) -> dict[Operation, OperationCpu]:
    """Each operation's median over its rounds; PostgreSQL's only if every round read it."""
    result: dict[Operation, OperationCpu] = {}
    for op in OPERATIONS:
        mine = [phase for phase in phases if phase["operation"] == op]
        if not mine:
            continue
        postgres = [phase["postgres_ms"] for phase in mine]
        result[op] = {
            "operation": op,
            "python_ms": statistics.median(phase["python_ms"] for phase in mine),
            "postgres_ms": (
                None
                if any(value is None for value in postgres)
                else statistics.median(value for value in postgres if value is not None)
            ),
        }
    return result


def round_order(round_: int) -> tuple[Operation, ...]:
    """Every other round reversed, so that a slow moment of the machine touches each
    operation in turn rather than always the same one."""
    return OPERATIONS if round_ % 2 else OPERATIONS[::-1]


def _function_name(file_name: str, line: int, name: str) -> str:
    base = str(settings.BASE_DIR) + "/"
    for prefix in (base, *(p + "/" for p in sys.path if "site-packages" in p)):
        if file_name.startswith(prefix):
            file_name = file_name[len(prefix) :]
            break
    return f"{file_name}:{line}({name})" if line else name


def profile_recalls(requests: Requests, count: int, top: int) -> dict[str, list[ProfileRow]]:
    """``count`` recalls under cProfile: the ``top`` functions by CPU time with their
    callees ("cumulative") and by their own ("own"), per recall."""
    # Timed by this process's CPU clock, as the measured loops are: the wall clock would
    # count the waits for PostgreSQL's answers as psycopg's own time.
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(count):
        requests.send("recall")
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows: list[ProfileRow] = [
        {
            "function": _function_name(file_name, line, name),
            "calls": calls / count,
            "own_ms": 1000.0 * own / count,
            "cumulative_ms": 1000.0 * cumulative / count,
        }
        for (file_name, line, name), (_, calls, own, cumulative, _) in (
            stats.stats.items()  # type: ignore[attr-defined]
        )
    ]
    key: dict[str, Callable[[ProfileRow], float]] = {
        "cumulative": lambda row: row["cumulative_ms"],
        "own": lambda row: row["own_ms"],
    }
    return {sort: sorted(rows, key=by, reverse=True)[:top] for sort, by in key.items()}


def recall_cpu_measure(
    connection: BaseDatabaseWrapper,
    fixture: Fixture,
    options: CpuOptions,
    *,
    progress: Callable[[str], None],
) -> RecallCpu:
    """Each round, each operation's CPU per request; then, if asked, recall profiled."""
    requests = Requests(
        fixture, word_draw(options["words"], fixture["vocabulary"]), options["seed"]
    )
    # The connection the requests use: the test client leaves it open after each one, so
    # that one backend serves them all.
    connection.ensure_connection()
    backend = Backend(connection)
    phases: list[PhaseCpu] = []
    for round_ in range(1, options["rounds"] + 1):
        for op in round_order(round_):
            phases.append(
                phase_measure(
                    requests,
                    backend,
                    op,
                    count=options["requests"],
                    warmup=options["warmup"],
                    round_=round_,
                )
            )
            phase = phases[-1]
            progress(f"round {round_}: {op} {phase['python_ms']:.3f} ms of Python per request")
    profile: dict[str, list[ProfileRow]] = {}
    if options["profile"]:
        progress(f"profiling {options['requests']:,} recalls")
        profile = profile_recalls(requests, options["requests"], options["profile"])
    return {
        "phases": phases,
        "medians": medians(phases),
        "backend_pid": backend.pid,
        "postgres_unread": backend.unread,
        "profile": profile,
    }
