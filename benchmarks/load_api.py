"""A small asyncio load generator for the Reverie REST API, phase by phase.

Each virtual client has its own principal's API token and one keep-alive HTTP/1.1
connection (``Connection``, below), and runs a closed loop: it sends its next
request as soon as the previous answer arrives. A phase is one operation at one
number of clients, with a short uncounted warm-up:

- ``healthz``: ``GET /healthz``, the bare endpoint (no authentication, no database):
  what the framework and the server can answer on this machine, the floor;
- ``memory``: ``GET /api/v1/memories/{id}``, an authenticated read that touches the
  database: the second baseline;
- ``recall``: ``POST /api/v1/recall`` with 2-4 word queries drawn from the corpus;
- ``append``: ``POST /api/v1/sessions/{id}/events``, a user message;
- ``recall_unrecorded``: recall against a second server (``--unrecorded-url``) that runs
  the same code on the same database without writing access records, so that one run
  measures what recording every token read costs recall. Given that URL, it runs beside
  every recall phase, the two in turn; the report gives each one's median throughput
  over the rounds and their ratio (target: recording keeps at least 90%).
- ``recall_meaning``: recall against a server with embeddings on (``--meaning-url``),
  which embeds every query and finds memories by meaning as well as by words, where
  ``recall`` runs against one with embeddings off. Given that URL, it too runs beside every
  recall phase. Every recall's query is one its principal has not asked before in the
  run, so that no answer comes from the query cache (repeats, if the draw ran out, are
  counted in the report).

The phases run one after another against the same server, alternated over
``--rounds``, at one client (latency alone) and then under load, and each (operation,
clients) pair is reported with its throughput as a ratio of healthz's, its p50/p95/p99
latency and the server's CPU per request: gunicorn's and that of the PostgreSQL backends
serving the benchmark's database, read from Linux's /proc, the load generator and the
rest of the machine left out. The verdict: at 16 clients a recall costs the server at
most 4 ms of CPU with p99 under 100 ms, alone its p50 is at most 8 ms, with embeddings
on alone its p50 is at most 60 ms, and no request fails. Without CPU accounting (no
/proc, no server pid) the CPU target is not judged, and the verdict says so instead of
passing.

Figures go to stdout, progress to stderr; the exit status is 0 whether the targets
are met or not. ``--json-out PATH`` also writes the figures, the targets and the
server's peak memory as one JSON object (the record format of benchmarks/records.py,
built here so that this script keeps to the standard library). The
fixture file (tokens, session and memory ids, vocabulary) comes from
``manage.py seed_load``. Usually run through benchmarks/run_load.sh; see
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import json
import math
import operator
import os
import platform
import random
import re
import resource
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NotRequired, Protocol, TypedDict, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:
    # Only the record's types: the script itself runs without the project on its path.
    from benchmarks.records import Comparison, Figure, PeakMemory, Record, Target

OPERATIONS = ("healthz", "memory", "recall", "append", "recall_unrecorded", "recall_meaning")
RECALLS = ("recall", "recall_unrecorded", "recall_meaning")
# The verdict's terms: what a recall costs the server and how long its slowest take, at the
# clients the targets name, and how long one takes alone.
TARGET_CLIENTS = 16
TARGET_RECALL_CPU_MS = 4.0
TARGET_RECALL_P99_MS = 100.0
ONE_CLIENT = 1
TARGET_ONE_CLIENT_P50_MS = 8.0
# Recall with embeddings on, alone: the query's embedding (tens of ms of the local model's
# CPU) dominates it.
TARGET_MEANING_ONE_CLIENT_P50_MS = 60.0
# Draws of a query's words before a repeat is accepted.
DISTINCT_DRAWS = 50
# Recall with access records against recall without them, same run, same clients.
TARGET_RECORDED_RATIO = 0.90
COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}
# How often a measured window reads the server's processes: a backend that exits loses
# at most this much of its time.
CPU_POLL_SECONDS = 0.5
CPU_UNMEASURED = (
    "the server's CPU was not measured: it is read from Linux's /proc, for the gunicorn of "
    "--server-pid and the backends of the fixture's database on a PostgreSQL of this machine"
)
# What the TLS-terminating proxy in front of a production deployment adds.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}

APPEND_TEMPLATES = (
    "Quick thing to remember: {s}",
    "By the way, an update on my side. {s}",
    "{s} Can you keep that in mind for next time?",
    "Note for the future - {s}",
    "I mentioned this before but it changed. {s}",
)


# One phase: an operation at a number of clients.
Phase = tuple[str, int]
# A request's outcome: the HTTP status, or the name of the exception it raised.
Status = int | str
# A request's JSON body.
Body = dict[str, object]
Value = TypeVar("Value")
Number = TypeVar("Number", int, float)


class FixturePrincipal(TypedDict):
    """One seeded principal, as ``manage.py seed_load`` writes it to the fixture."""

    username: str
    token: str
    session_id: str
    memory_ids: list[str]
    events: int
    statements: list[str]


class Fixture(TypedDict):
    """The fixture file ``manage.py seed_load`` writes: the database, its principals and
    the vocabulary recall's queries are drawn from."""

    database: str
    postgresql: str
    leakproof: bool
    seed: int
    beliefs_per_principal: int
    messages_per_principal: int
    principals: list[FixturePrincipal]
    vocabulary: list[str]


class LoadArgs(argparse.Namespace):
    """The command line, as ``main`` parses it."""

    url: str
    fixture: str
    operations: list[str]
    clients: list[int]
    rounds: int
    duration: float
    warmup: float
    limit: int
    seed: int
    timeout: float
    wait: float
    server_pid: int
    server_info: str
    unrecorded_url: str
    unrecorded_server_pid: int
    meaning_url: str
    meaning_server_pid: int
    json_out: str | None


class CpuUsed(TypedDict):
    """CPU ticks of one window, per part; a part that could not be read is None."""

    seconds: float
    busy: int
    generator: float
    gunicorn: int | None
    postgres: int | None


class CpuShares(TypedDict):
    """Percent of one core per part of a window; a part that could not be read is None."""

    busy: float | None
    generator: float | None
    gunicorn: float | None
    postgres: float | None
    other: float | None


CpuPart = Literal["busy", "generator", "gunicorn", "postgres", "other"]


class Clock(TypedDict):
    """A phase's times (``time.perf_counter``): when counting starts, when the phase ends,
    and the step between clients' starts."""

    measure: float
    end: float
    ramp: float


class PhaseFigures(TypedDict):
    """One phase's requests, throughput and latencies (ms), its errors by status, and its
    throughput as a ratio of healthz's (set by ``phase_rows``)."""

    requests: int
    rps: float
    p50: float
    p95: float
    p99: float
    max: float
    errors: Counter[Status]
    ratio: NotRequired[float]


Percentile = Literal["p50", "p95", "p99"]

RecordingCost = TypedDict(
    "RecordingCost",
    {
        "with": float,
        "without": float,
        "ratio": float,
        "rounds": int,
        "per_round": list[tuple[float, float]],
    },
)


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class WordDraw(Protocol):
    """How a recall's query words are drawn: ``k`` distinct words of a vocabulary."""

    def sample(self, rng: random.Random, k: int) -> list[str]: ...


class Zipf:
    """Draw from ``items`` with weight 1 / rank (as benchmarks/corpus.py does)."""

    def __init__(self, items: Iterable[str]) -> None:
        self.items = list(items)
        self.cum = list(itertools.accumulate(1.0 / rank for rank in range(1, len(self.items) + 1)))

    def sample(self, rng: random.Random, k: int) -> list[str]:
        picked: list[str] = []
        while len(picked) < min(k, len(self.items)):
            item = self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]
            if item not in picked:
                picked.append(item)
        return picked


# -- CPU accounting (Linux /proc; figures are left out elsewhere) -----------------------


def clock_ticks() -> int:
    """Clock ticks per second, the unit of /proc's CPU times."""
    try:
        return os.sysconf("SC_CLK_TCK")
    except (ValueError, OSError, AttributeError):
        return 100


def proc_stat_parse(raw: str) -> tuple[str, int, int]:
    """(comm, ppid, own cpu ticks: utime + stime) from the text of ``/proc/<pid>/stat``.

    The command name is in parentheses and may itself hold spaces and parentheses, so
    the fields are counted from the last closing one.
    """
    comm = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state): ppid is 4, utime and stime are 14 and 15.
    return comm, int(fields[1]), int(fields[11]) + int(fields[12])


def _proc_stats() -> dict[int, tuple[str, int, int]]:
    """{pid: (comm, ppid, own cpu ticks)} of every process."""
    stats: dict[int, tuple[str, int, int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        stats[int(entry.name)] = proc_stat_parse(raw)
    return stats


def process_title(pid: int) -> str:
    """A process's title: PostgreSQL writes what each backend serves there."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""


# "postgres: [cluster: ]user database host(port) activity", host being [local] over a socket.
_BACKEND_TITLE = re.compile(r"(?:^postgres: |: )\S+ (\S+) (?:\S+\(\d+\)|\[local\])")


def backend_database(title: str) -> str | None:
    """The database a PostgreSQL backend serves, from its process title; None for the
    cluster's own processes (postmaster, checkpointer, walwriter...)."""
    match = _BACKEND_TITLE.search(title)
    return match.group(1) if match else None


def _system_ticks() -> tuple[int, int]:
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values[:8]), idle


def _generator_ticks() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return (own.ru_utime + own.ru_stime) * clock_ticks()


class ServerCpu:
    """The CPU ticks one window of load cost: the server (gunicorn's master and workers,
    and the PostgreSQL backends that serve the benchmark's database), the load generator,
    and the whole machine.

    The cluster serves other databases too (tests, other benchmarks on the same machine):
    their backends and the cluster's own processes are not the server's, and count as the
    machine's ``other``. A backend that exits takes its ticks with it (the postmaster's
    reaped-children time mixes every database's), so the window is read every
    ``CPU_POLL_SECONDS`` and each process counts its last reading. A part that cannot be
    read here (no ``--server-pid``, no PostgreSQL on this machine) is None, and the
    whole is None without Linux's /proc.
    """

    # Set by ``start``: the machine's (total, idle) ticks, the generator's own, and when.
    machine: tuple[int, int]
    generator: float
    started: float

    def __init__(self, server_pid: int, database: str) -> None:
        self.server_pid, self.database = server_pid, database
        # {pid: ticks} at the start; {pid: (part, ticks)} at the last reading.
        self.first: dict[int, int] = {}
        self.last: dict[int, tuple[str, int]] = {}
        self.postgres_here = False
        self.broken = False
        # A backend's database once its title names one; the title is set just after fork.
        self.databases: dict[int, str] = {}

    def _reading(self) -> dict[int, tuple[str, int]]:
        parts: dict[int, tuple[str, int]] = {}
        for pid, (comm, ppid, ticks) in _proc_stats().items():
            if self.server_pid and self.server_pid in (pid, ppid):
                parts[pid] = ("gunicorn", ticks)
            elif comm == "postgres":
                self.postgres_here = True
                if pid not in self.databases and (database := backend_database(process_title(pid))):
                    self.databases[pid] = database
                if self.database and self.databases.get(pid) == self.database:
                    parts[pid] = ("postgres", ticks)
        return parts

    def start(self) -> None:
        try:
            self.last = self._reading()
            self.machine = _system_ticks()
        except OSError:
            self.broken = True
            return
        self.first = {pid: ticks for pid, (_, ticks) in self.last.items()}
        self.generator = _generator_ticks()
        self.started = time.monotonic()

    def poll(self) -> None:
        if self.broken:
            return
        try:
            self.last.update(self._reading())
        except OSError:
            self.broken = True

    def stop(self) -> CpuUsed | None:
        """{seconds, busy, generator, gunicorn, postgres}: ticks used since ``start``."""
        self.poll()
        if self.broken:
            return None
        try:
            total, idle = _system_ticks()
        except OSError:
            return None
        used = {"gunicorn": 0, "postgres": 0}
        # A process born in the window started from nothing.
        for pid, (part, ticks) in self.last.items():
            used[part] += ticks - self.first.get(pid, 0)
        return {
            "seconds": time.monotonic() - self.started,
            "busy": (total - idle) - (self.machine[0] - self.machine[1]),
            "generator": _generator_ticks() - self.generator,
            "gunicorn": used["gunicorn"] if self.server_pid else None,
            "postgres": used["postgres"] if self.database and self.postgres_here else None,
        }


def _peak_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def server_peak_memory(server_pid: int) -> dict[int, float] | None:
    """Peak resident memory (VmHWM) of gunicorn's master and each worker, in MiB.

    Read once the load is over and before the server stops; None without /proc.
    """
    if not server_pid:
        return None
    try:
        pids = [
            pid
            for pid, (_, ppid, _) in _proc_stats().items()
            if pid == server_pid or ppid == server_pid
        ]
        return {pid: _peak_rss_kib(pid) / 1024 for pid in sorted(pids)}
    except OSError:
        return None


def cpu_shares(used: CpuUsed | None) -> CpuShares | None:
    """Percent of one core each part used in a window (a 2-core machine has 200%); a part
    that could not be read stays None and falls into ``other``."""
    if used is None:
        return None
    ticks = used["seconds"] * clock_ticks()

    def share(part_ticks: float | None) -> float | None:
        return None if part_ticks is None else 100.0 * part_ticks / ticks

    busy = 100.0 * used["busy"] / ticks
    generator, gunicorn, postgres = (
        share(used["generator"]),
        share(used["gunicorn"]),
        share(used["postgres"]),
    )
    return {
        "busy": busy,
        "generator": generator,
        "gunicorn": gunicorn,
        "postgres": postgres,
        "other": max(0.0, busy - sum(part or 0.0 for part in (generator, gunicorn, postgres))),
    }


def server_share(shares: CpuShares | None) -> float | None:
    """The server's percent of one core (gunicorn and its database's backends); None
    unless both were read."""
    if shares is None or shares["gunicorn"] is None or shares["postgres"] is None:
        return None
    return shares["gunicorn"] + shares["postgres"]


# -- the load ---------------------------------------------------------------------------


class Recorder:
    """Every counted request's latency and status, per (operation, clients)."""

    def __init__(self) -> None:
        self.latencies: dict[Phase, list[float]] = {}
        self.statuses: dict[Phase, Counter[Status]] = {}
        self.seconds: defaultdict[Phase, float] = defaultdict(float)
        # Each phase's own throughput, per (operation, clients), round by round.
        self.phase_rps: dict[Phase, list[float]] = {}
        self.items: list[int] = []
        # The queries each principal has asked, per recall operation, and how many were
        # asked again because the draw found no new one.
        self.asked: defaultdict[tuple[str, str], set[str]] = defaultdict(set)
        self.repeats: Counter[str] = Counter()

    def add(self, key: Phase, seconds: float, status: Status) -> None:
        self.latencies.setdefault(key, []).append(seconds)
        self.statuses.setdefault(key, Counter())[status] += 1


def recall_body(
    rng: random.Random, words: WordDraw, limit: int, asked: set[str] | None = None
) -> Body:
    """A recall of 2-4 words; with ``asked``, one not in it (unless ``DISTINCT_DRAWS``
    draws found none), added to it."""
    query = " ".join(words.sample(rng, rng.randint(2, 4)))
    if asked is not None:
        for _ in range(DISTINCT_DRAWS):
            if query not in asked:
                break
            query = " ".join(words.sample(rng, rng.randint(2, 4)))
        asked.add(query)
    body: Body = {"query": query}
    if limit:
        body["limit"] = limit
    return body


def append_body(rng: random.Random, statements: Sequence[str]) -> Body:
    text = rng.choice(APPEND_TEMPLATES).format(s=rng.choice(statements))
    return {
        "type": "user.message.created",
        "parts": [{"type": "text", "text": text}],
        "author_name": "load",
    }


def request_for(
    op: str,
    rng: random.Random,
    principal: FixturePrincipal,
    words: WordDraw,
    limit: int,
    asked: set[str] | None = None,
) -> tuple[str, str, Body | None]:
    """(method, path, json body) of one request of ``op`` for ``principal``; a recall's
    query is not one of ``asked``, when given."""
    if op == "healthz":
        return "GET", "/healthz", None
    if op == "memory":
        return "GET", f"/api/v1/memories/{rng.choice(principal['memory_ids'])}", None
    if op in RECALLS:
        return "POST", "/api/v1/recall", recall_body(rng, words, limit, asked)
    statements = principal["statements"] or ["Likes long walks."]
    return (
        "POST",
        f"/api/v1/sessions/{principal['session_id']}/events",
        append_body(rng, statements),
    )


class Connection:
    """One keep-alive HTTP/1.1 connection that writes each request as bytes and reads the
    answer by its length.

    A general client (httpx) costs about 1.7 ms of CPU per request here, which on two
    cores shared with the server made the generator, not the server, the ceiling of
    ``/healthz``. This one does only what the benchmark needs, so that the floor is
    the server's. A server that closes the connection gets a new one.
    """

    def __init__(self, url: str, headers: Mapping[str, str], timeout: float) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.timeout = timeout
        fixed = {"Host": f"{self.host}:{self.port}", **headers}
        self.head = "".join(f"{name}: {value}\r\n" for name, value in fixed.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Body | None = None) -> tuple[int, bytes]:
        """(status, body bytes) of one request; raises OSError, ValueError or TimeoutError."""
        try:
            return await asyncio.wait_for(self._exchange(method, path, body), self.timeout)
        except BaseException:
            self.close()
            raise

    async def _exchange(self, method: str, path: str, body: Body | None) -> tuple[int, bytes]:
        # Opened and closed together: either both are there or neither is.
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        reader = self.reader
        payload = b"" if body is None else json.dumps(body).encode()
        kind = "Content-Type: application/json\r\n" if body is not None else ""
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\n{self.head}{kind}"
            f"Content-Length: {len(payload)}\r\n\r\n".encode()
            + payload
        )
        status = int((await reader.readline()).split()[1])
        length, chunked, close = 0, False, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value
            elif name == b"connection":
                close = value == b"close"
        answer = await self._chunks(reader) if chunked else await reader.readexactly(length)
        if close:
            self.close()
        return status, answer

    async def _chunks(self, reader: asyncio.StreamReader) -> bytes:
        answer = b""
        while size := int((await reader.readline()).strip(), 16):
            answer += await reader.readexactly(size)
            await reader.readline()
        await reader.readline()
        return answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def virtual_client(
    index: int,
    principal: FixturePrincipal,
    phase: Phase,
    args: LoadArgs,
    words: Zipf,
    clock: Clock,
    recorder: Recorder,
) -> None:
    op, clients = phase
    rng = random.Random(f"reverie-load:client:{args.seed}:{op}:{clients}:{index}")
    connection = Connection(
        server_url(args, op),
        {"Authorization": f"Bearer {principal['token']}", **PROXY_HEADERS},
        args.timeout,
    )
    asked = recorder.asked[(op, principal["username"])] if op in RECALLS else None
    try:
        # The clients connect one after another over the first half of the warm-up,
        # as an assistant's sessions would, not in one burst: a burst lands most of its
        # keep-alive connections on whichever gunicorn worker wakes first, and that
        # worker alone (one core, under its interpreter lock) then serves the phase.
        await asyncio.sleep(index * clock["ramp"])
        while (started := time.perf_counter()) < clock["end"]:
            before = len(asked) if asked is not None else 0
            method, path, body = request_for(op, rng, principal, words, args.limit, asked)
            if asked is not None and len(asked) == before:
                recorder.repeats[op] += 1
            status: Status
            try:
                status, answer = await connection.request(method, path, body)
                if op == "recall" and status == 200:
                    recorder.items.append(len(json.loads(answer)["items"]))
            except (OSError, ValueError, KeyError, IndexError, TimeoutError) as exc:
                status = type(exc).__name__
            if started >= clock["measure"]:
                recorder.add(phase, time.perf_counter() - started, status)
    finally:
        connection.close()


def server_url(args: LoadArgs, op: str) -> str:
    """The server ``op`` runs against."""
    if op == "recall_unrecorded":
        return args.unrecorded_url
    if op == "recall_meaning":
        return args.meaning_url
    return args.url


def server_pid(args: LoadArgs, op: str) -> int:
    """The gunicorn master of the server ``op`` runs against, for its CPU."""
    if op == "recall_unrecorded":
        return args.unrecorded_server_pid
    if op == "recall_meaning":
        return args.meaning_server_pid
    return args.server_pid


async def wait_healthy(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    connection = Connection(url, PROXY_HEADERS, 2.0)
    try:
        while True:
            try:
                if (await connection.request("GET", "/healthz"))[0] == 200:
                    return
            except (OSError, ValueError, IndexError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{url}/healthz did not answer 200 within {seconds:.0f} s")
            await asyncio.sleep(0.2)
    finally:
        connection.close()


def phase_plan(args: LoadArgs) -> list[Phase]:
    """The phases in order: each round runs every operation at every client count,
    the operations in turn, so that a slow minute of the machine touches them all."""
    plan: list[Phase] = []
    for round_ in range(args.rounds):
        operations = args.operations if round_ % 2 == 0 else list(reversed(args.operations))
        plan.extend((op, clients) for clients in args.clients for op in operations)
    return plan


async def run_phase(
    phase: Phase,
    args: LoadArgs,
    principals: Sequence[FixturePrincipal],
    words: Zipf,
    recorder: Recorder,
    cpu: dict[Phase, list[CpuShares]],
    database: str,
) -> None:
    op, clients = phase
    start = time.perf_counter()
    clock: Clock = {
        "measure": start + args.warmup,
        "end": start + args.warmup + args.duration,
        "ramp": args.warmup / 2 / clients,
    }
    tasks = [
        asyncio.create_task(
            virtual_client(i, principals[i % len(principals)], phase, args, words, clock, recorder)
        )
        for i in range(clients)
    ]
    # Earlier rounds' requests of this phase: the rest are this round's.
    counted = len(recorder.latencies.get(phase, ()))
    meter = ServerCpu(server_pid(args, op), database)
    await asyncio.sleep(max(0.0, clock["measure"] - time.perf_counter()))
    meter.start()
    while (left := clock["end"] - time.perf_counter()) > 0:
        await asyncio.sleep(min(CPU_POLL_SECONDS, left))
        meter.poll()
    used = meter.stop()
    await asyncio.gather(*tasks)
    # Requests still open at the window's end finish after it: throughput divides by
    # the time the window's requests took to answer.
    seconds = max(args.duration, time.perf_counter() - clock["measure"])
    recorder.seconds[phase] += seconds
    requests = len(recorder.latencies.get(phase, ())) - counted
    recorder.phase_rps.setdefault(phase, []).append(requests / seconds)
    shares = cpu_shares(used)
    if shares:
        cpu.setdefault(phase, []).append(shares)


async def run(
    args: LoadArgs, fixture: Fixture
) -> tuple[Recorder, dict[Phase, list[CpuShares]], dict[int, float] | None]:
    if args.wait:
        await wait_healthy(args.url, args.wait)
        if args.unrecorded_url:
            await wait_healthy(args.unrecorded_url, args.wait)
        if args.meaning_url:
            await wait_healthy(args.meaning_url, args.wait)
    principals = fixture["principals"]
    if max(args.clients) > len(principals):
        progress(
            f"WARNING: {max(args.clients)} clients but {len(principals)} principals: "
            "some clients share a principal (and its throttle bucket)"
        )
    words = Zipf(fixture["vocabulary"])
    recorder = Recorder()
    cpu: dict[Phase, list[CpuShares]] = {}
    plan = phase_plan(args)
    for number, phase in enumerate(plan, 1):
        progress(
            f"phase {number}/{len(plan)}: {phase[0]} with {phase[1]} clients "
            f"({args.warmup:g} s warm-up, {args.duration:g} s measured)"
        )
        await run_phase(phase, args, principals, words, recorder, cpu, fixture.get("database", ""))
    server_memory = server_peak_memory(args.server_pid)
    return recorder, cpu, server_memory


# -- the report -------------------------------------------------------------------------


def percentile(sorted_ms: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_ms:
        return float("nan")
    return sorted_ms[max(1, math.ceil(fraction * len(sorted_ms))) - 1]


def _succeeded(status: Status) -> bool:
    return isinstance(status, int) and 200 <= status < 300


def figures(
    latencies: Iterable[float], statuses: Mapping[Status, int], seconds: float
) -> PhaseFigures:
    ms = sorted(latency * 1000 for latency in latencies)
    errors = Counter({status: n for status, n in statuses.items() if not _succeeded(status)})
    return {
        "requests": len(ms),
        "rps": len(ms) / seconds if seconds else float("nan"),
        "p50": percentile(ms, 0.50),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "max": ms[-1] if ms else float("nan"),
        "errors": errors,
    }


def phase_rows(recorder: Recorder) -> dict[Phase, PhaseFigures]:
    """{(operation, clients): figures}, with each operation's ratio to healthz's throughput."""
    rows = {
        key: figures(recorder.latencies[key], recorder.statuses[key], recorder.seconds[key])
        for key in recorder.latencies
    }
    for (_, clients), row in rows.items():
        floor = rows.get(("healthz", clients))
        row["ratio"] = row["rps"] / floor["rps"] if floor and floor["rps"] else float("nan")
    return rows


def recording_cost(recorder: Recorder, clients: int) -> RecordingCost | None:
    """Recall's median throughput over the rounds with access records and without them (the
    second server) at ``clients``, and their ratio; None unless both ran."""
    recorded = recorder.phase_rps.get(("recall", clients))
    unrecorded = recorder.phase_rps.get(("recall_unrecorded", clients))
    if not recorded or not unrecorded:
        return None
    with_, without = statistics.median(recorded), statistics.median(unrecorded)
    return {
        "with": with_,
        "without": without,
        "ratio": with_ / without if without else float("nan"),
        "rounds": len(recorded),
        "per_round": list(zip(recorded, unrecorded, strict=False)),
    }


def _ordered(rows: Mapping[Phase, PhaseFigures]) -> list[tuple[Phase, PhaseFigures]]:
    return sorted(rows.items(), key=lambda item: (item[0][1], OPERATIONS.index(item[0][0])))


def _clients(clients: int) -> str:
    return "1 client" if clients == 1 else f"{clients} clients"


def _mean_shares(samples: Sequence[CpuShares]) -> CpuShares:
    """The rounds' mean share of each part; a part unread in any round stays None."""

    def mean(part: CpuPart) -> float | None:
        shares = [s[part] for s in samples]
        read = [share for share in shares if share is not None]
        return sum(read) / len(samples) if len(read) == len(shares) else None

    return {
        "busy": mean("busy"),
        "generator": mean("generator"),
        "gunicorn": mean("gunicorn"),
        "postgres": mean("postgres"),
        "other": mean("other"),
    }


def cpu_per_request(
    rows: Mapping[Phase, PhaseFigures], cpu: Mapping[Phase, Sequence[CpuShares]]
) -> dict[Phase, float]:
    """{(operation, clients): ms of the server's CPU per request}, for the phases whose
    gunicorn and PostgreSQL were both read: % of one core / (req/s) x 10."""
    per_request: dict[Phase, float] = {}
    for key, row in rows.items():
        server = server_share(_mean_shares(cpu[key])) if cpu.get(key) else None
        if server is not None and row["rps"] and not math.isnan(row["rps"]):
            per_request[key] = 10 * server / row["rps"]
    return per_request


def _finite(value: Value) -> Value | None:
    return None if isinstance(value, float) and math.isnan(value) else value


def _target(
    text: str, op: Comparison, threshold: float, value: float | None, *, why: str = ""
) -> Target:
    """A target in the format of benchmarks/records.py. No figure at all does not meet it;
    one that could not be measured here (``why``) is not judged."""
    if why:
        return {
            "text": text,
            "op": op,
            "value": threshold,
            "applicable": False,
            "met": None,
            "why": why,
        }
    met = value is not None and COMPARISONS[op](value, threshold)
    return {"text": text, "op": op, "value": threshold, "applicable": True, "met": met}


def _figure(name: str, unit: str, value: float | None, target: Target | None = None) -> Figure:
    return {
        "name": name,
        "unit": unit,
        "value": value,
        "baseline": None,
        "ratio": None,
        "target": target,
    }


def _against_healthz(
    figure: Figure,
    op: str,
    clients: int,
    what: str,
    unit: str,
    floor: float | None,
    *,
    name: str | None = None,
) -> Figure:
    """``figure`` with healthz's same figure as its baseline, and their ratio."""
    value = figure["value"]
    figure["baseline"] = {
        "name": name or f"healthz {what}, {_clients(clients)}",
        "unit": unit,
        "value": floor,
    }
    figure["ratio"] = {
        "name": f"{op} / healthz {what}",
        "value": value / floor if value is not None and floor else None,
        "target": None,
    }
    return figure


def _cpu_figure(
    rows: Mapping[Phase, PhaseFigures],
    per_request: Mapping[Phase, float],
    op: str,
    clients: int,
    *,
    judged: bool = False,
) -> Figure:
    """``op``'s server CPU per request; judged, it meets TARGET_RECALL_CPU_MS, and a phase
    that ran without its CPU read is not judged (rather than passed)."""
    value = per_request.get((op, clients))
    target = None
    if judged:
        why = CPU_UNMEASURED if (op, clients) in rows and value is None else ""
        target = _target(
            f"<= {TARGET_RECALL_CPU_MS:g} ms", "<=", TARGET_RECALL_CPU_MS, value, why=why
        )
    figure = _figure(f"{op} CPU per request, {_clients(clients)}", "ms", value, target)
    if op != "healthz" and (judged or ("healthz", clients) in rows):
        floor = per_request.get(("healthz", clients))
        _against_healthz(figure, op, clients, "CPU per request", "ms", floor)
    return figure


def _ran_cpu_figure(
    rows: Mapping[Phase, PhaseFigures], per_request: Mapping[Phase, float], op: str, clients: int
) -> Figure | None:
    """``op``'s server CPU per request, unjudged; None when it did not run at ``clients``."""
    return _cpu_figure(rows, per_request, op, clients) if (op, clients) in rows else None


def _latency_figure(
    rows: Mapping[Phase, PhaseFigures],
    op: str,
    clients: int,
    key: Percentile,
    target: tuple[str, Comparison, float] | None = None,
    *,
    against_healthz: bool = True,
) -> Figure:
    """``op``'s ``key`` percentile at ``clients``, with healthz's as its baseline."""
    row, floor = rows.get((op, clients)), rows.get(("healthz", clients))
    figure = _figure(f"{op} {key}, {_clients(clients)}", "ms", _finite(row[key]) if row else None)
    if target:
        figure["target"] = _target(target[0], target[1], target[2], figure["value"])
    if against_healthz and op != "healthz":
        _against_healthz(figure, op, clients, key, "ms", _finite(floor[key]) if floor else None)
    return figure


def _throughput_figure(rows: Mapping[Phase, PhaseFigures], op: str, clients: int) -> Figure | None:
    row, floor = rows.get((op, clients)), rows.get(("healthz", clients))
    if row is None:
        return None
    figure = _figure(f"{op} throughput, {_clients(clients)}", "req/s", _finite(row["rps"]))
    if op != "healthz" and floor is not None:
        _against_healthz(
            figure,
            op,
            clients,
            "throughput",
            "req/s",
            _finite(floor["rps"]),
            name=f"healthz, {_clients(clients)}",
        )
    return figure


def judged_figures(
    rows: Mapping[Phase, PhaseFigures], cpu: Mapping[Phase, Sequence[CpuShares]]
) -> list[Figure]:
    """The figures the verdict judges, in the record's format: recall's server CPU per
    request and its p99 at TARGET_CLIENTS, its p50 alone, and the errors of every phase."""
    errors = sum(sum(row["errors"].values()) for row in rows.values())
    return [
        _cpu_figure(rows, cpu_per_request(rows, cpu), "recall", TARGET_CLIENTS, judged=True),
        _latency_figure(
            rows,
            "recall",
            TARGET_CLIENTS,
            "p99",
            (f"< {TARGET_RECALL_P99_MS:g} ms", "<", TARGET_RECALL_P99_MS),
            # Under load the tail is queueing, which healthz's says nothing about.
            against_healthz=False,
        ),
        _latency_figure(
            rows,
            "recall",
            ONE_CLIENT,
            "p50",
            (f"<= {TARGET_ONE_CLIENT_P50_MS:g} ms", "<=", TARGET_ONE_CLIENT_P50_MS),
        ),
        *(
            [
                _latency_figure(
                    rows,
                    "recall_meaning",
                    ONE_CLIENT,
                    "p50",
                    (
                        f"<= {TARGET_MEANING_ONE_CLIENT_P50_MS:g} ms",
                        "<=",
                        TARGET_MEANING_ONE_CLIENT_P50_MS,
                    ),
                )
            ]
            if any(op == "recall_meaning" for op, _ in rows)
            else []
        ),
        _figure("errors, all operations", "", errors, _target("0", "==", 0, errors)),
    ]


def verdict(figures_: Sequence[Figure]) -> str:
    """FAIL when any judged figure fails; not judged when one could not be measured here;
    PASS otherwise."""
    targets = [figure["target"] for figure in figures_ if figure["target"]]
    if any(target["applicable"] and not target["met"] for target in targets):
        return "FAIL"
    unjudged = [target["why"] for target in targets if not target["applicable"]]
    if unjudged:
        return f"not judged ({'; '.join(dict.fromkeys(unjudged))})"
    return "PASS"


def _verdict_line(figure: Figure, rows: Mapping[Phase, PhaseFigures]) -> str:
    target, value = figure["target"], figure["value"]
    # Every judged figure has a target.
    assert target is not None
    if not target["applicable"]:
        return f"target: {figure['name']} {target['text']}: n/a ({target['why']})\n"
    if value is None:
        detail = "its phase was not run"
    elif figure["unit"] == "ms" and "CPU" in figure["name"]:
        detail = f"{value:.2f} ms"
        ratio, baseline = figure.get("ratio"), figure.get("baseline")
        if ratio and baseline and ratio["value"] is not None:
            detail += (
                f" = gunicorn + PostgreSQL; healthz {baseline['value']:.2f} ms, "
                f"{ratio['value']:.1f}x"
            )
    elif figure["unit"] == "ms":
        detail = f"{value:.1f} ms"
        for op in ("recall", "recall_meaning"):
            if figure["name"] == f"{op} p50, {_clients(ONE_CLIENT)}":
                detail += f"; p95 {rows[(op, ONE_CLIENT)]['p95']:.1f} ms"
    else:
        detail = f"{value:,}"
    verdict_ = "PASS" if target["met"] else "FAIL"
    return f"target: {figure['name']} {target['text']}: {verdict_} ({detail})\n"


def report(
    args: LoadArgs,
    fixture: Fixture,
    recorder: Recorder,
    cpu: Mapping[Phase, Sequence[CpuShares]],
) -> None:
    out = sys.stdout.write
    principals = fixture["principals"]
    out(
        f"API load: operations {', '.join(args.operations)} at "
        f"{', '.join(str(c) for c in args.clients)} keep-alive clients, closed loop; "
        f"{args.rounds} round(s) of {args.duration:g} s measured per phase after "
        f"{args.warmup:g} s warm-up\n"
    )
    out(
        f"machine: {os.cpu_count()} CPUs ({platform.machine()}), load generator, server and "
        f"database on the same machine; Python {platform.python_version()}, "
        "a keep-alive HTTP/1.1 client of the standard library\n"
    )
    out(f"database: PostgreSQL {fixture['postgresql']}; {fixture['database']}; ")
    out(f"ts_match_vq LEAKPROOF {'yes' if fixture['leakproof'] else 'no'}\n")
    if args.server_info:
        out(f"server: {args.server_info}\n")
    out(
        f"data: {len(principals)} principals, each {fixture['beliefs_per_principal']:,} beliefs "
        f"and a session of {fixture['messages_per_principal']:,} seeded messages; "
        f"vocabulary {len(fixture['vocabulary']):,} words\n\n"
    )

    rows = phase_rows(recorder)
    per_request = cpu_per_request(rows, cpu)
    header = (
        f"{'operation':<10}{'clients':>8}{'requests':>10}{'req/s':>9}{'/healthz':>9}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}{'errors':>8}"
        f"{'server CPU ms/req':>18}\n"
    )
    out(header + "-" * (len(header) - 1) + "\n")
    for (op, clients), f in _ordered(rows):
        cost = per_request.get((op, clients))
        out(
            f"{op:<10}{clients:>8}{f['requests']:>10,}{f['rps']:>9.1f}{f['ratio']:>9.3f}"
            f"{f['p50']:>9.1f}{f['p95']:>9.1f}{f['p99']:>9.1f}{f['max']:>9.1f}"
            f"{sum(f['errors'].values()):>8,}{'-' if cost is None else f'{cost:.2f}':>18}\n"
        )
    out(
        f"server CPU ms/req: gunicorn's master and workers and the PostgreSQL backends of "
        f"{fixture['database']}, per request; the load generator and the rest of the machine "
        "are left out\n\n"
    )
    for (op, clients), f in _ordered(rows):
        if f["errors"]:
            breakdown = ", ".join(f"{status} x{n:,}" for status, n in f["errors"].most_common())
            out(f"errors ({op}, {clients} clients): {breakdown}\n")
    if recorder.items:
        out(f"recall items per answer: mean {sum(recorder.items) / len(recorder.items):.2f}\n")
    asked = {
        op: sum(len(queries) for (asked_op, _), queries in recorder.asked.items() if asked_op == op)
        for op in RECALLS
    }
    for op in RECALLS:
        if asked[op]:
            out(
                f"{op}: {asked[op]:,} distinct queries, {recorder.repeats[op]:,} asked again "
                "(no query cache hit but for those)\n"
            )
    cores = os.cpu_count()
    for (op, clients), samples in sorted(cpu.items(), key=lambda item: item[0][1]):
        shares = {
            key: "-" if share is None else f"{share:.0f}"
            for key, share in _mean_shares(samples).items()
        }
        all_cores = "?" if cores is None else 100 * cores
        out(
            f"CPU, {op} at {_clients(clients)}, % of one core ({all_cores}% in all): "
            f"busy {shares['busy']}, load generator {shares['generator']}, gunicorn "
            f"{shares['gunicorn']}, PostgreSQL {shares['postgres']}, other {shares['other']}\n"
        )
    for clients in args.clients:
        recorded = recording_cost(recorder, clients)
        if recorded is not None:
            out(
                f"access records, recall at {_clients(clients)}, median of {recorded['rounds']} "
                f"round(s): {recorded['with']:.1f} req/s recording every read, "
                f"{recorded['without']:.1f} req/s without = {recorded['ratio']:.3f} "
                f"(target >= {TARGET_RECORDED_RATIO:g}: "
                f"{'PASS' if recorded['ratio'] >= TARGET_RECORDED_RATIO else 'FAIL'})\n"
            )
            out(
                "  round by round, req/s with / without: "
                + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in recorded["per_round"])
                + "\n"
            )
    out("\n")
    judged = judged_figures(rows, cpu)
    for figure in judged:
        out(_verdict_line(figure, rows))
    out(f"verdict: {verdict(judged)}\n")
    sys.stdout.flush()


def load_record(
    args: LoadArgs,
    fixture: Fixture,
    recorder: Recorder,
    cpu: Mapping[Phase, Sequence[CpuShares]],
    server_memory: Mapping[int, float] | None,
) -> Record:
    """The run as a ``--json-out`` record: the judged figures first, then the server's CPU
    per request and the throughputs beside healthz's on the same server."""
    rows = phase_rows(recorder)
    per_request = cpu_per_request(rows, cpu)
    peak: PeakMemory
    if server_memory:
        peak = {
            "mib": round(sum(server_memory.values()), 1),
            "of": f"gunicorn master + {len(server_memory) - 1} workers: sum of each process's "
            "peak RSS (VmHWM; pages they share are counted in each)",
        }
    else:
        peak = {
            "mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "of": "load generator (ru_maxrss); the server's was not available",
        }
    cost = recording_cost(recorder, TARGET_CLIENTS)
    figures_: list[Figure | None] = [
        *judged_figures(rows, cpu),
        (
            _latency_figure(rows, "recall", ONE_CLIENT, "p95")
            if ("recall", ONE_CLIENT) in rows
            else None
        ),
        _ran_cpu_figure(rows, per_request, "healthz", TARGET_CLIENTS),
        _ran_cpu_figure(rows, per_request, "memory", TARGET_CLIENTS),
        # Recall with embeddings on, under load: printed beside recall by words, not judged.
        _ran_cpu_figure(rows, per_request, "recall_meaning", TARGET_CLIENTS),
        (
            _latency_figure(rows, "recall_meaning", TARGET_CLIENTS, "p99", against_healthz=False)
            if ("recall_meaning", TARGET_CLIENTS) in rows
            else None
        ),
        # One client's throughput is its latency's inverse: the latencies above say it.
        *(
            _throughput_figure(rows, op, clients)
            for clients in args.clients
            if clients != ONE_CLIENT
            for op in OPERATIONS
        ),
        cost
        and {
            "name": f"recall with access records, {TARGET_CLIENTS} clients (median of rounds)",
            "unit": "req/s",
            "value": _finite(cost["with"]),
            "baseline": {
                "name": f"recall without access records, {TARGET_CLIENTS} clients",
                "unit": "req/s",
                "value": _finite(cost["without"]),
            },
            "ratio": {
                "name": "with / without access records",
                "value": _finite(cost["ratio"]),
                "target": _target(
                    f">= {TARGET_RECORDED_RATIO:g}x without",
                    ">=",
                    TARGET_RECORDED_RATIO,
                    _finite(cost["ratio"]),
                ),
            },
            "target": None,
        },
    ]
    return {
        "schema": 1,
        "benchmark": "load",
        "figures": [figure for figure in figures_ if figure is not None],
        "baseline_note": "healthz (no authentication, no database) on the same server in the "
        "same run; GET /memories/{id} is the second baseline",
        "peak_memory": peak,
        "details": {
            "options": {
                key: getattr(args, key)
                for key in (
                    "operations",
                    "clients",
                    "rounds",
                    "duration",
                    "warmup",
                    "limit",
                    "seed",
                )
            },
            "server": args.server_info,
            "postgresql": fixture["postgresql"],
            "leakproof": fixture["leakproof"],
            "phases": {
                f"{op}@{clients}": {
                    **{key: _finite(value) for key, value in f.items() if key != "errors"},
                    "errors": {str(status): n for status, n in f["errors"].items()},
                    "cpu_percent_of_one_core": (
                        _mean_shares(cpu[(op, clients)]) if cpu.get((op, clients)) else None
                    ),
                    "server_cpu_ms_per_request": per_request.get((op, clients)),
                }
                for (op, clients), f in _ordered(rows)
            },
            "recording_cost": {
                str(clients): recording_cost(recorder, clients) for clients in args.clients
            },
            "recall_items_mean": (
                sum(recorder.items) / len(recorder.items) if recorder.items else None
            ),
            "server_peak_rss_mib": (
                {str(pid): mib for pid, mib in server_memory.items()} if server_memory else None
            ),
            "generator_peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        },
    }


def _positive(kind: Callable[[str], Number]) -> Callable[[str], Number]:
    def parse(value: str) -> Number:
        number = kind(value)
        if number <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
        return number

    return parse


def _choices(allowed: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(value: str) -> list[str]:
        items = [item.strip() for item in value.split(",") if item.strip()]
        unknown = [item for item in items if item not in allowed]
        if not items or unknown:
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {', '.join(allowed)}, got {value!r}"
            )
        return items

    return parse


def _client_counts(value: str) -> list[int]:
    try:
        counts = [int(item) for item in value.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated positive integers, got {value!r}"
        )
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="Server base URL.")
    parser.add_argument(
        "--fixture",
        default=str(Path(__file__).resolve().parent.parent / "var" / "load_fixture.json"),
        help="Written by manage.py seed_load (default: var/load_fixture.json).",
    )
    parser.add_argument(
        "--operations",
        type=_choices(OPERATIONS),
        default=["healthz", "memory", "recall"],
        help="Comma-separated phases' operations (healthz,memory,recall; append too).",
    )
    parser.add_argument(
        "--clients",
        type=_client_counts,
        default=[ONE_CLIENT, 16, 64],
        help="Client counts (1,16,64): one client for latency alone, 16 for the targets.",
    )
    parser.add_argument("--rounds", type=_positive(int), default=1, help="Rounds of phases.")
    parser.add_argument(
        "--duration", type=_positive(float), default=10.0, help="Seconds measured per phase."
    )
    parser.add_argument("--warmup", type=float, default=2.0, help="Uncounted seconds first.")
    parser.add_argument("--limit", type=int, default=0, help="Recall limit (default: server's).")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=_positive(float), default=10.0, help="Per request, s.")
    parser.add_argument(
        "--wait", type=float, default=0.0, help="First wait up to this long for /healthz."
    )
    parser.add_argument("--server-pid", type=int, default=0, help="gunicorn master, for CPU.")
    parser.add_argument("--server-info", default="", help="Printed with the machine context.")
    parser.add_argument(
        "--unrecorded-url",
        default="",
        help="A second server on the same database that writes no access records: recall "
        "runs against both, in turn, and the report compares them.",
    )
    parser.add_argument(
        "--unrecorded-server-pid", type=int, default=0, help="Its gunicorn master, for CPU."
    )
    parser.add_argument(
        "--meaning-url",
        default="",
        help="A server on the same database with embeddings on: recall_meaning runs against "
        "it beside every recall phase, and the report gives both.",
    )
    parser.add_argument(
        "--meaning-server-pid", type=int, default=0, help="Its gunicorn master, for CPU."
    )
    parser.add_argument(
        "--json-out",
        metavar="PATH",
        help="Also write the figures, the targets and the server's peak memory as JSON.",
    )
    args = parser.parse_args(argv, namespace=LoadArgs())
    args.url = args.url.rstrip("/")
    args.unrecorded_url = args.unrecorded_url.rstrip("/")
    if "recall_unrecorded" in args.operations and not args.unrecorded_url:
        parser.error("the recall_unrecorded operation needs --unrecorded-url")
    args.meaning_url = args.meaning_url.rstrip("/")
    if "recall_meaning" in args.operations and not args.meaning_url:
        parser.error("the recall_meaning operation needs --meaning-url")
    for url, op in (
        (args.meaning_url, "recall_meaning"),
        (args.unrecorded_url, "recall_unrecorded"),
    ):
        if url and "recall" in args.operations and op not in args.operations:
            at = args.operations.index("recall") + 1
            args.operations = [*args.operations[:at], op, *args.operations[at:]]
    fixture: Fixture = json.loads(Path(args.fixture).read_text())
    recorder, cpu, server_memory = asyncio.run(run(args, fixture))
    report(args, fixture, recorder, cpu)
    if args.json_out:
        record = load_record(args, fixture, recorder, cpu, server_memory)
        path = Path(args.json_out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
