"""A small asyncio load generator for the Reverie REST API.

Each virtual client has its own principal's API token and one keep-alive
HTTP/1.1 connection (an ``httpx.AsyncClient``). It sends ``POST /api/v1/recall``
with 2-4 word queries drawn from the corpus vocabulary, or appends a user message
with ``POST /api/v1/sessions/{id}/events``, and records every request's latency
and status. After a short warm-up (not counted) it measures for ``--duration``
seconds and prints, per operation and overall: requests, throughput, p50/p95/p99
latency and errors, then a PASS/FAIL line for the target.

By default the clients run a closed loop: each sends its next request as soon
as the previous answer arrives. With ``--rate`` they are paced to that many
requests per second in total, and latency counts from when a request was due,
so a server that falls behind is not flattered by clients that waited for it.

Figures go to stdout, progress to stderr; the exit status is 0 whether the
target is met or not. ``--json-out PATH`` also writes the figures, the target
and the server's peak memory as one JSON object (the record format of
benchmarks/records.py, built here so that this script keeps to the standard
library and httpx). The fixture file (tokens, session ids, vocabulary) comes
from ``manage.py seed_load``.
Usually run through benchmarks/run_load.sh; see docs/benchmarks.md.
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
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

TARGET_RECALL_RPS = 300.0
TARGET_RECALL_P99_MS = 100.0
OPERATIONS = ("recall", "append")
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
    def __init__(self):
        self.latencies = {op: [] for op in OPERATIONS}
        self.statuses = {op: Counter() for op in OPERATIONS}
        self.items = []
        self.done = 0
        # When the last counted request finished: throughput divides by the
        # time it took to answer the window's requests (at least the window).
        self.last_finish = 0.0

    def add(self, op, seconds, status, counted):
        self.done += 1
        if counted:
            self.latencies[op].append(seconds)
            self.statuses[op][status] += 1
            self.last_finish = max(self.last_finish, time.perf_counter())


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


async def virtual_client(index, principal, args, words, clock, recorder):
    rng = random.Random(f"reverie-load:client:{args.seed}:{index}")
    statements = principal["statements"] or ["Likes long walks."]
    append_path = f"/api/v1/sessions/{principal['session_id']}/events"
    interval = args.clients / args.rate if args.rate else 0.0
    due = clock["start"] + rng.uniform(0, interval)
    async with httpx.AsyncClient(
        base_url=args.url,
        headers={"Authorization": f"Bearer {principal['token']}", **PROXY_HEADERS},
        http1=True,
        http2=False,
        timeout=httpx.Timeout(args.timeout),
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
    ) as client:
        while True:
            now = time.perf_counter()
            if interval:
                if due > now:
                    await asyncio.sleep(due - now)
                started = due
                due += interval
            else:
                started = now
            if started >= clock["end"]:
                break
            if rng.random() < args.recall_share:
                op, path, body = "recall", "/api/v1/recall", recall_body(rng, words, args.limit)
            else:
                op, path, body = "append", append_path, append_body(rng, statements)
            try:
                response = await client.post(path, json=body)
                status = response.status_code
                if op == "recall" and status == 200:
                    recorder.items.append(len(response.json()["items"]))
            except (httpx.HTTPError, ValueError, KeyError) as exc:
                status = type(exc).__name__
            recorder.add(
                op,
                time.perf_counter() - started,
                status,
                counted=clock["measure"] <= started < clock["end"],
            )


async def report_progress(clock, recorder):
    last_done, last_time = 0, time.perf_counter()
    while time.perf_counter() < clock["end"]:
        await asyncio.sleep(10)
        now = time.perf_counter()
        phase = "warm-up" if now < clock["measure"] else "measuring"
        progress(
            f"{phase}: {recorder.done:,} requests so far, "
            f"{(recorder.done - last_done) / (now - last_time):.0f} req/s in the last interval"
        )
        last_done, last_time = recorder.done, now


async def wait_healthy(url, seconds):
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url, timeout=2.0, headers=PROXY_HEADERS) as client:
        while True:
            try:
                if (await client.get("/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{url}/healthz did not answer 200 within {seconds:.0f} s")
            await asyncio.sleep(0.2)


async def run(args, fixture):
    if args.wait:
        await wait_healthy(args.url, args.wait)
    principals = fixture["principals"]
    if args.clients > len(principals):
        progress(
            f"WARNING: {args.clients} clients but {len(principals)} principals: "
            "some clients share a principal (and its throttle bucket)"
        )
    words = Zipf(fixture["vocabulary"])
    recorder = Recorder()
    start = time.perf_counter()
    clock = {
        "start": start,
        "measure": start + args.warmup,
        "end": start + args.warmup + args.duration,
    }
    progress(
        f"{args.clients} clients against {args.url}: {args.warmup:g} s warm-up, "
        f"then {args.duration:g} s measured"
    )
    tasks = [
        asyncio.create_task(
            virtual_client(i, principals[i % len(principals)], args, words, clock, recorder)
        )
        for i in range(args.clients)
    ]
    progress_task = asyncio.create_task(report_progress(clock, recorder))
    await asyncio.sleep(max(0.0, clock["measure"] - time.perf_counter()))
    cpu_start = cpu_sample(args.server_pid)
    await asyncio.sleep(max(0.0, clock["end"] - time.perf_counter()))
    cpu_end = cpu_sample(args.server_pid)
    await asyncio.gather(*tasks)
    progress_task.cancel()
    server_memory = server_peak_memory(args.server_pid)
    elapsed = max(args.duration, recorder.last_finish - clock["measure"])
    return recorder, cpu_shares(cpu_start, cpu_end), elapsed, server_memory


# -- the report -------------------------------------------------------------------------


def percentile(sorted_ms, fraction):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_ms:
        return float("nan")
    return sorted_ms[max(1, math.ceil(fraction * len(sorted_ms))) - 1]


def _succeeded(status):
    return isinstance(status, int) and 200 <= status < 300


def figures(latencies, statuses, duration):
    ms = sorted(seconds * 1000 for seconds in latencies)
    errors = Counter({status: n for status, n in statuses.items() if not _succeeded(status)})
    return {
        "requests": len(ms),
        "rps": len(ms) / duration,
        "p50": percentile(ms, 0.50),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "max": ms[-1] if ms else float("nan"),
        "errors": errors,
    }


def operation_rows(recorder, elapsed):
    """[(operation, figures)] for recall, append and all requests together."""
    every = {
        "latencies": [s for op in OPERATIONS for s in recorder.latencies[op]],
        "statuses": sum((recorder.statuses[op] for op in OPERATIONS), Counter()),
    }
    rows = [
        (op, figures(recorder.latencies[op], recorder.statuses[op], elapsed)) for op in OPERATIONS
    ]
    rows.append(("all", figures(every["latencies"], every["statuses"], elapsed)))
    return rows


def report(args, fixture, recorder, cpu, elapsed):
    out = sys.stdout.write
    principals = fixture["principals"]
    mode = f"paced to {args.rate:g} req/s in total" if args.rate else "closed loop"
    out(
        f"API load: {args.clients} clients, {args.duration:g} s measured after "
        f"{args.warmup:g} s warm-up, {mode}; recall share {args.recall_share:.2f}\n"
    )
    out(
        f"machine: {os.cpu_count()} CPUs ({platform.machine()}), load generator, server and "
        f"database on the same machine; Python {platform.python_version()}, "
        f"httpx {httpx.__version__}\n"
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

    rows = operation_rows(recorder, elapsed)
    header = (
        f"{'operation':<10}{'requests':>10}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'p99 ms':>9}{'max ms':>9}{'errors':>8}"
    )
    out(header + "\n" + "-" * len(header) + "\n")
    for op, f in rows:
        out(
            f"{op:<10}{f['requests']:>10,}{f['rps']:>9.1f}{f['p50']:>9.1f}{f['p95']:>9.1f}"
            f"{f['p99']:>9.1f}{f['max']:>9.1f}{sum(f['errors'].values()):>8,}\n"
        )
    out("\n")
    for op, f in rows[:-1]:
        if f["errors"]:
            breakdown = ", ".join(f"{status} x{n:,}" for status, n in f["errors"].most_common())
            out(f"errors ({op}): {breakdown}\n")
    if not rows[-1][1]["errors"]:
        out("errors: none\n")
    if recorder.items:
        out(f"recall items per answer: mean {sum(recorder.items) / len(recorder.items):.2f}\n")
    if elapsed > args.duration + 1:
        out(
            f"the server fell behind: the window's requests took {elapsed:.1f} s to answer; "
            "req/s divide by that\n"
        )
    if cpu:
        out(
            f"CPU in the measured window, % of one core ({os.cpu_count()} cores = "
            f"{100 * os.cpu_count()}%): busy {cpu['busy']:.0f}, load generator "
            f"{cpu['generator']:.0f}, gunicorn {cpu['gunicorn']:.0f}, PostgreSQL "
            f"{cpu['postgres']:.0f}, other {cpu['other']:.0f}\n"
        )
        rps = rows[-1][1]["rps"]
        if rps:
            # % of a core / (req/s) * 10 = ms of CPU per request.
            per = {key: 10 * share / rps for key, share in cpu.items()}
            out(
                f"CPU per request: {per['busy']:.1f} ms in all; gunicorn {per['gunicorn']:.1f} ms, "
                f"PostgreSQL {per['postgres']:.1f} ms, load generator {per['generator']:.1f} ms\n"
            )
    if not args.rate and rows[-1][1]["rps"]:
        # Little's law: with every client always waiting for an answer, the
        # mean latency is the number of clients over the throughput.
        out(
            f"closed loop: mean latency = clients / throughput = {args.clients} / "
            f"{rows[-1][1]['rps']:.1f} req/s = {1000 * args.clients / rows[-1][1]['rps']:.0f} ms "
            f"(Little's law); a p99 under {TARGET_RECALL_P99_MS:.0f} ms needs well over "
            f"{args.clients * 1000 / TARGET_RECALL_P99_MS:.0f} req/s in all\n"
        )
    out("\n")
    recall = rows[0][1]
    errors = sum(rows[-1][1]["errors"].values())
    passed = (
        recall["rps"] >= TARGET_RECALL_RPS and recall["p99"] < TARGET_RECALL_P99_MS and not errors
    )
    out(
        f"target recall >= {TARGET_RECALL_RPS:.0f} req/s at p99 < {TARGET_RECALL_P99_MS:.0f} ms, "
        f"0 errors: {'PASS' if passed else 'FAIL'} (recall {recall['rps']:.1f} req/s, "
        f"p99 {recall['p99']:.1f} ms; {errors:,} errors)\n"
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


def load_record(args, fixture, recorder, cpu, elapsed, server_memory):
    """The run as a ``--json-out`` record. The load benchmark has no same-run baseline."""
    rows = dict(operation_rows(recorder, elapsed))
    recall = rows["recall"]
    rps, p99 = _finite(recall["rps"]), _finite(recall["p99"])
    errors = sum(rows["all"]["errors"].values())
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
    no_baseline = {"baseline": None, "ratio": None}
    return {
        "schema": 1,
        "benchmark": "load",
        "figures": [
            {
                "name": "recall throughput",
                "unit": "req/s",
                "value": rps,
                **no_baseline,
                "target": _target(f">= {TARGET_RECALL_RPS:g} req/s", ">=", TARGET_RECALL_RPS, rps),
            },
            {
                "name": "recall p99",
                "unit": "ms",
                "value": p99,
                **no_baseline,
                "target": _target(f"< {TARGET_RECALL_P99_MS:g} ms", "<", TARGET_RECALL_P99_MS, p99),
            },
            {
                "name": "errors, all operations",
                "unit": "",
                "value": errors,
                **no_baseline,
                "target": _target("0", "==", 0, errors),
            },
        ],
        "baseline_note": "none: the load benchmark runs no baseline in the same run "
        "(the paced runs in docs/benchmarks.md are separate runs)",
        "peak_memory": peak,
        "details": {
            "options": {
                key: getattr(args, key)
                for key in (
                    "clients",
                    "duration",
                    "warmup",
                    "recall_share",
                    "rate",
                    "limit",
                    "seed",
                )
            },
            "server": args.server_info,
            "postgresql": fixture["postgresql"],
            "leakproof": fixture["leakproof"],
            "elapsed": elapsed,
            "operations": {
                op: {
                    **{key: _finite(value) for key, value in f.items() if key != "errors"},
                    "errors": {str(status): n for status, n in f["errors"].items()},
                }
                for op, f in rows.items()
            },
            "recall_items_mean": (
                sum(recorder.items) / len(recorder.items) if recorder.items else None
            ),
            "cpu_percent_of_one_core": cpu,
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


def _share(value):
    number = float(value)
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {value!r}")
    return number


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="Server base URL.")
    parser.add_argument(
        "--fixture",
        default=str(Path(__file__).resolve().parent.parent / "var" / "load_fixture.json"),
        help="Written by manage.py seed_load (default: var/load_fixture.json).",
    )
    parser.add_argument("--clients", type=_positive(int), default=32)
    parser.add_argument("--duration", type=_positive(float), default=60.0, help="Seconds.")
    parser.add_argument("--warmup", type=float, default=5.0, help="Uncounted seconds first.")
    parser.add_argument(
        "--recall-share", type=_share, default=0.8, help="Share of requests that are recalls."
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="Pace all clients together to this many requests/s (default 0: closed loop).",
    )
    parser.add_argument("--limit", type=int, default=0, help="Recall limit (default: server's).")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=_positive(float), default=10.0, help="Per request, s.")
    parser.add_argument(
        "--wait", type=float, default=0.0, help="First wait up to this long for /healthz."
    )
    parser.add_argument("--server-pid", type=int, default=0, help="gunicorn master, for CPU.")
    parser.add_argument("--server-info", default="", help="Printed with the machine context.")
    parser.add_argument(
        "--json-out",
        metavar="PATH",
        help="Also write the figures, the target and the server's peak memory as JSON.",
    )
    args = parser.parse_args(argv)
    args.url = args.url.rstrip("/")
    fixture = json.loads(Path(args.fixture).read_text())
    recorder, cpu, elapsed, server_memory = asyncio.run(run(args, fixture))
    report(args, fixture, recorder, cpu, elapsed)
    if args.json_out:
        record = load_record(args, fixture, recorder, cpu, elapsed, server_memory)
        path = Path(args.json_out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
