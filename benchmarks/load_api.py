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

The phases run one after another against the same server, alternated over
``--rounds``, and each (operation, clients) pair is reported with its throughput and
p50/p95/p99 latency, and recall's throughput as a ratio of healthz's at the same
number of clients. The verdict: at 16 clients recall reaches at least a quarter of
the healthz throughput with p99 under 100 ms, and no request fails.

Figures go to stdout, progress to stderr; the exit status is 0 whether the targets
are met or not. ``--json-out PATH`` also writes the figures, the targets and the
server's peak memory as one JSON object (the record format of benchmarks/records.py,
built here so that this script keeps to the standard library). The
fixture file (tokens, session and memory ids, vocabulary) comes from
``manage.py seed_load``. Usually run through benchmarks/run_load.sh; see
docs/benchmarks.md.
"""

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
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

OPERATIONS = ("healthz", "memory", "recall", "append", "recall_unrecorded")
# The verdict's terms: recall against the floor, at the clients the target names.
TARGET_CLIENTS = 16
TARGET_RATIO = 0.25
TARGET_RECALL_P99_MS = 100.0
# Recall with access records against recall without them, same run, same clients.
TARGET_RECORDED_RATIO = 0.90
# What the TLS-terminating proxy in front of a production deployment adds.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}

APPEND_TEMPLATES = (
    "Quick thing to remember: {s}",
    "By the way, an update on my side. {s}",
    "{s} Can you keep that in mind for next time?",
    "Note for the future - {s}",
    "I mentioned this before but it changed. {s}",
)


def progress(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Zipf:
    """Draw from ``items`` with weight 1 / rank (as benchmarks/corpus.py does)."""

    def __init__(self, items):
        self.items = list(items)
        self.cum = list(itertools.accumulate(1.0 / rank for rank in range(1, len(items) + 1)))

    def sample(self, rng, k):
        picked = []
        while len(picked) < min(k, len(self.items)):
            item = self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]
            if item not in picked:
                picked.append(item)
        return picked


# -- CPU accounting (Linux /proc; figures are left out elsewhere) -----------------------


def _clock_ticks():
    try:
        return os.sysconf("SC_CLK_TCK")
    except (ValueError, OSError, AttributeError):
        return 100


def _proc_stats():
    """{pid: (comm, ppid, own cpu ticks, reaped children's cpu ticks)} of every process."""
    stats = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        # fields[0] is field 3 (state): ppid is 4, utime..cstime are 14..17.
        stats[int(entry.name)] = (
            comm,
            int(fields[1]),
            int(fields[11]) + int(fields[12]),
            int(fields[13]) + int(fields[14]),
        )
    return stats


def _system_ticks():
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values[:8]), idle


def cpu_sample(server_pid):
    """Cumulative CPU ticks: whole machine, load generator, gunicorn, PostgreSQL."""
    try:
        stats = _proc_stats()
        total, idle = _system_ticks()
    except OSError:
        return None
    own = resource.getrusage(resource.RUSAGE_SELF)
    gunicorn = 0
    if server_pid:
        gunicorn = sum(
            ticks + (reaped if pid == server_pid else 0)
            for pid, (_, ppid, ticks, reaped) in stats.items()
            if pid == server_pid or ppid == server_pid
        )
    # Backends come and go (one per request without persistent connections):
    # the postmaster's reaped-children time holds those that already exited.
    postgres = 0
    for _, ppid, ticks, reaped in (s for s in stats.values() if s[0] == "postgres"):
        postgres += ticks
        if stats.get(ppid, ("",))[0] != "postgres":
            postgres += reaped
    return {
        "time": time.monotonic(),
        "busy": (total - idle),
        "generator": (own.ru_utime + own.ru_stime) * _clock_ticks(),
        "gunicorn": gunicorn,
        "postgres": postgres,
    }


def _peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def server_peak_memory(server_pid):
    """Peak resident memory (VmHWM) of gunicorn's master and each worker, in MiB.

    Read once the load is over and before the server stops; None without /proc.
    """
    if not server_pid:
        return None
    try:
        pids = [
            pid
            for pid, (_, ppid, _, _) in _proc_stats().items()
            if pid == server_pid or ppid == server_pid
        ]
        return {pid: _peak_rss_kib(pid) / 1024 for pid in sorted(pids)}
    except OSError:
        return None


def cpu_shares(start, end):
    """Percent of one core each part used between two samples (a 2-core machine has 200%)."""
    if start is None or end is None:
        return None
    seconds = (end["time"] - start["time"]) * _clock_ticks()
    shares = {
        key: 100.0 * (end[key] - start[key]) / seconds
        for key in ("busy", "generator", "gunicorn", "postgres")
    }
    shares["other"] = max(
        0.0, shares["busy"] - shares["generator"] - shares["gunicorn"] - shares["postgres"]
    )
    return shares


# -- the load ---------------------------------------------------------------------------


class Recorder:
    """Every counted request's latency and status, per (operation, clients)."""

    def __init__(self):
        self.latencies = {}
        self.statuses = {}
        self.seconds = Counter()
        # Each phase's own throughput, per (operation, clients), round by round.
        self.phase_rps = {}
        self.items = []

    def add(self, key, seconds, status):
        self.latencies.setdefault(key, []).append(seconds)
        self.statuses.setdefault(key, Counter())[status] += 1


def recall_body(rng, words, limit):
    body = {"query": " ".join(words.sample(rng, rng.randint(2, 4)))}
    if limit:
        body["limit"] = limit
    return body


def append_body(rng, statements):
    text = rng.choice(APPEND_TEMPLATES).format(s=rng.choice(statements))
    return {
        "type": "user.message.created",
        "parts": [{"type": "text", "text": text}],
        "author_name": "load",
    }


def request_for(op, rng, principal, words, args):
    """(method, path, json body) of one request of ``op`` for ``principal``."""
    if op == "healthz":
        return "GET", "/healthz", None
    if op == "memory":
        return "GET", f"/api/v1/memories/{rng.choice(principal['memory_ids'])}", None
    if op in ("recall", "recall_unrecorded"):
        return "POST", "/api/v1/recall", recall_body(rng, words, args.limit)
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

    def __init__(self, url, headers, timeout):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.timeout = timeout
        fixed = {"Host": f"{self.host}:{self.port}", **headers}
        self.head = "".join(f"{name}: {value}\r\n" for name, value in fixed.items())
        self.reader = self.writer = None

    async def request(self, method, path, body=None):
        """(status, body bytes) of one request; raises OSError, ValueError or TimeoutError."""
        try:
            return await asyncio.wait_for(self._exchange(method, path, body), self.timeout)
        except BaseException:
            self.close()
            raise

    async def _exchange(self, method, path, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        kind = "Content-Type: application/json\r\n" if body is not None else ""
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\n{self.head}{kind}"
            f"Content-Length: {len(payload)}\r\n\r\n".encode()
            + payload
        )
        status = int((await self.reader.readline()).split()[1])
        length, chunked, close = 0, False, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value
            elif name == b"connection":
                close = value == b"close"
        answer = await self._chunks() if chunked else await self.reader.readexactly(length)
        if close:
            self.close()
        return status, answer

    async def _chunks(self):
        answer = b""
        while size := int((await self.reader.readline()).strip(), 16):
            answer += await self.reader.readexactly(size)
            await self.reader.readline()
        await self.reader.readline()
        return answer

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def virtual_client(index, principal, phase, args, words, clock, recorder):
    op, clients = phase
    rng = random.Random(f"reverie-load:client:{args.seed}:{op}:{clients}:{index}")
    connection = Connection(
        args.unrecorded_url if op == "recall_unrecorded" else args.url,
        {"Authorization": f"Bearer {principal['token']}", **PROXY_HEADERS},
        args.timeout,
    )
    try:
        # The clients connect one after another over the first half of the warm-up,
        # as an assistant's sessions would, not in one burst: a burst lands most of its
        # keep-alive connections on whichever gunicorn worker wakes first, and that
        # worker alone (one core, under its interpreter lock) then serves the phase.
        await asyncio.sleep(index * clock["ramp"])
        while (started := time.perf_counter()) < clock["end"]:
            method, path, body = request_for(op, rng, principal, words, args)
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


async def wait_healthy(url, seconds):
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


def phase_plan(args):
    """The phases in order: each round runs every operation at every client count,
    the operations in turn, so that a slow minute of the machine touches them all."""
    plan = []
    for round_ in range(args.rounds):
        operations = args.operations if round_ % 2 == 0 else list(reversed(args.operations))
        plan.extend((op, clients) for clients in args.clients for op in operations)
    return plan


async def run_phase(phase, args, principals, words, recorder, cpu):
    op, clients = phase
    start = time.perf_counter()
    clock = {
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
    server_pid = args.unrecorded_server_pid if op == "recall_unrecorded" else args.server_pid
    await asyncio.sleep(max(0.0, clock["measure"] - time.perf_counter()))
    cpu_start = cpu_sample(server_pid)
    await asyncio.sleep(max(0.0, clock["end"] - time.perf_counter()))
    cpu_end = cpu_sample(server_pid)
    await asyncio.gather(*tasks)
    # Requests still open at the window's end finish after it: throughput divides by
    # the time the window's requests took to answer.
    seconds = max(args.duration, time.perf_counter() - clock["measure"])
    recorder.seconds[phase] += seconds
    requests = len(recorder.latencies.get(phase, ())) - counted
    recorder.phase_rps.setdefault(phase, []).append(requests / seconds)
    shares = cpu_shares(cpu_start, cpu_end)
    if shares:
        cpu.setdefault(phase, []).append(shares)


async def run(args, fixture):
    if args.wait:
        await wait_healthy(args.url, args.wait)
        if args.unrecorded_url:
            await wait_healthy(args.unrecorded_url, args.wait)
    principals = fixture["principals"]
    if max(args.clients) > len(principals):
        progress(
            f"WARNING: {max(args.clients)} clients but {len(principals)} principals: "
            "some clients share a principal (and its throttle bucket)"
        )
    words = Zipf(fixture["vocabulary"])
    recorder = Recorder()
    cpu = {}
    plan = phase_plan(args)
    for number, phase in enumerate(plan, 1):
        progress(
            f"phase {number}/{len(plan)}: {phase[0]} with {phase[1]} clients "
            f"({args.warmup:g} s warm-up, {args.duration:g} s measured)"
        )
        await run_phase(phase, args, principals, words, recorder, cpu)
    server_memory = server_peak_memory(args.server_pid)
    return recorder, cpu, server_memory


# -- the report -------------------------------------------------------------------------


def percentile(sorted_ms, fraction):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_ms:
        return float("nan")
    return sorted_ms[max(1, math.ceil(fraction * len(sorted_ms))) - 1]


def _succeeded(status):
    return isinstance(status, int) and 200 <= status < 300


def figures(latencies, statuses, seconds):
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


def phase_rows(recorder):
    """{(operation, clients): figures}, with each operation's ratio to healthz's throughput."""
    rows = {
        key: figures(recorder.latencies[key], recorder.statuses[key], recorder.seconds[key])
        for key in recorder.latencies
    }
    for (_, clients), row in rows.items():
        floor = rows.get(("healthz", clients))
        row["ratio"] = row["rps"] / floor["rps"] if floor and floor["rps"] else float("nan")
    return rows


def recording_cost(recorder, clients):
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


def _ordered(rows):
    return sorted(rows.items(), key=lambda item: (item[0][1], OPERATIONS.index(item[0][0])))


def verdict(rows):
    """(passed, recall figures at the target's clients, errors in all)."""
    recall = rows.get(("recall", TARGET_CLIENTS))
    errors = sum(sum(row["errors"].values()) for row in rows.values())
    passed = (
        recall is not None
        and recall["ratio"] >= TARGET_RATIO
        and recall["p99"] < TARGET_RECALL_P99_MS
        and not errors
    )
    return passed, recall, errors


def _mean_shares(samples):
    return {key: sum(s[key] for s in samples) / len(samples) for key in samples[0]}


def report(args, fixture, recorder, cpu):
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
    header = (
        f"{'operation':<10}{'clients':>8}{'requests':>10}{'req/s':>9}{'/healthz':>9}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}{'errors':>8}"
        f"{'CPU ms/req':>11}\n"
    )
    out(header + "-" * (len(header) - 1) + "\n")
    for (op, clients), f in _ordered(rows):
        per_request = "-"
        if cpu.get((op, clients)) and f["rps"]:
            # % of a core / (req/s) * 10 = ms of CPU per request, the whole machine.
            per_request = f"{10 * _mean_shares(cpu[(op, clients)])['busy'] / f['rps']:.2f}"
        out(
            f"{op:<10}{clients:>8}{f['requests']:>10,}{f['rps']:>9.1f}{f['ratio']:>9.3f}"
            f"{f['p50']:>9.1f}{f['p95']:>9.1f}{f['p99']:>9.1f}{f['max']:>9.1f}"
            f"{sum(f['errors'].values()):>8,}{per_request:>11}\n"
        )
    out("\n")
    for (op, clients), f in _ordered(rows):
        if f["errors"]:
            breakdown = ", ".join(f"{status} x{n:,}" for status, n in f["errors"].most_common())
            out(f"errors ({op}, {clients} clients): {breakdown}\n")
    if recorder.items:
        out(f"recall items per answer: mean {sum(recorder.items) / len(recorder.items):.2f}\n")
    for (op, clients), samples in sorted(cpu.items(), key=lambda item: item[0][1]):
        shares = _mean_shares(samples)
        out(
            f"CPU, {op} at {clients} clients, % of one core ({100 * os.cpu_count()}% in all): "
            f"busy {shares['busy']:.0f}, load generator {shares['generator']:.0f}, gunicorn "
            f"{shares['gunicorn']:.0f}, PostgreSQL {shares['postgres']:.0f}, other "
            f"{shares['other']:.0f}\n"
        )
    for clients in args.clients:
        cost = recording_cost(recorder, clients)
        if cost is not None:
            out(
                f"access records, recall at {clients} clients, median of {cost['rounds']} "
                f"round(s): {cost['with']:.1f} req/s recording every read, "
                f"{cost['without']:.1f} req/s without = {cost['ratio']:.3f} "
                f"(target >= {TARGET_RECORDED_RATIO:g}: "
                f"{'PASS' if cost['ratio'] >= TARGET_RECORDED_RATIO else 'FAIL'})\n"
            )
            out(
                "  round by round, req/s with / without: "
                + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in cost["per_round"])
                + "\n"
            )
    out("\n")
    passed, recall, errors = verdict(rows)
    if recall is None:
        out(f"target: no recall phase at {TARGET_CLIENTS} clients was run\n")
    else:
        out(
            f"target at {TARGET_CLIENTS} clients: recall >= {TARGET_RATIO:g} x healthz "
            f"throughput with p99 < {TARGET_RECALL_P99_MS:.0f} ms, 0 errors: "
            f"{'PASS' if passed else 'FAIL'} (recall {recall['rps']:.1f} req/s = "
            f"{recall['ratio']:.3f} x healthz, p99 {recall['p99']:.1f} ms; {errors:,} errors)\n"
        )
    sys.stdout.flush()


def _finite(value):
    return None if isinstance(value, float) and math.isnan(value) else value


def _target(text, op, threshold, value):
    """A target in the format of benchmarks/records.py; no figure at all does not meet it."""
    met = value is not None and {">=": operator.ge, "<": operator.lt, "==": operator.eq}[op](
        value, threshold
    )
    return {"text": text, "op": op, "value": threshold, "applicable": True, "met": met}


def _throughput_figure(rows, op, clients, ratio_target):
    row, floor = rows.get((op, clients)), rows.get(("healthz", clients))
    if row is None and not ratio_target:
        return None
    # A judged figure that was not run (say, --clients 64 only) stays, and fails.
    rps = _finite(row["rps"]) if row else None
    ratio = _finite(row["ratio"]) if row else None
    figure = {
        "name": f"{op} throughput, {clients} clients",
        "unit": "req/s",
        "value": rps,
        "baseline": None,
        "ratio": None,
        "target": None,
    }
    if (floor is not None or ratio_target) and op != "healthz":
        figure["baseline"] = {
            "name": f"healthz, {clients} clients",
            "unit": "req/s",
            "value": _finite(floor["rps"]) if floor else None,
        }
        figure["ratio"] = {
            "name": f"{op} / healthz throughput",
            "value": ratio,
            "target": (
                _target(f">= {TARGET_RATIO:g}x healthz", ">=", TARGET_RATIO, ratio)
                if ratio_target
                else None
            ),
        }
    return figure


def load_record(args, fixture, recorder, cpu, server_memory):
    """The run as a ``--json-out`` record: recall against healthz on the same server."""
    rows = phase_rows(recorder)
    _, recall, errors = verdict(rows)
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
    p99 = _finite(recall["p99"]) if recall else None
    cost = recording_cost(recorder, TARGET_CLIENTS)
    figures_ = [
        _throughput_figure(rows, "recall", TARGET_CLIENTS, ratio_target=True),
        {
            "name": f"recall p99, {TARGET_CLIENTS} clients",
            "unit": "ms",
            "value": p99,
            "baseline": None,
            "ratio": None,
            "target": _target(f"< {TARGET_RECALL_P99_MS:g} ms", "<", TARGET_RECALL_P99_MS, p99),
        },
        *(
            _throughput_figure(rows, op, clients, ratio_target=False)
            for clients in args.clients
            for op in OPERATIONS
            if (op, clients) != ("recall", TARGET_CLIENTS)
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
        {
            "name": "errors, all operations",
            "unit": "",
            "value": errors,
            "baseline": None,
            "ratio": None,
            "target": _target("0", "==", 0, errors),
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


def _positive(kind):
    def parse(value):
        number = kind(value)
        if number <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
        return number

    return parse


def _choices(allowed):
    def parse(value):
        items = [item.strip() for item in value.split(",") if item.strip()]
        unknown = [item for item in items if item not in allowed]
        if not items or unknown:
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {', '.join(allowed)}, got {value!r}"
            )
        return items

    return parse


def _client_counts(value):
    try:
        counts = [int(item) for item in value.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated positive integers, got {value!r}"
        )
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
        "--clients", type=_client_counts, default=[16, 64], help="Client counts (16,64)."
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
        "--json-out",
        metavar="PATH",
        help="Also write the figures, the targets and the server's peak memory as JSON.",
    )
    args = parser.parse_args(argv)
    args.url = args.url.rstrip("/")
    args.unrecorded_url = args.unrecorded_url.rstrip("/")
    if "recall_unrecorded" in args.operations and not args.unrecorded_url:
        parser.error("the recall_unrecorded operation needs --unrecorded-url")
    paired = "recall" in args.operations and "recall_unrecorded" not in args.operations
    if args.unrecorded_url and paired:
        at = args.operations.index("recall") + 1
        args.operations = [*args.operations[:at], "recall_unrecorded", *args.operations[at:]]
    fixture = json.loads(Path(args.fixture).read_text())
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
