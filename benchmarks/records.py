"""The machine-readable record a benchmark writes with ``--json-out``.

One JSON object per run. ``figures`` lists what the benchmark judges, the
primary figure first; each figure carries its same-run baseline and ratio when
the benchmark has them (``null`` when it doesn't, with ``baseline_note`` saying
so) and its target, with the comparison spelled out so that a reader can judge
the median of several runs the same way (``manage.py benchmark`` does).
``details`` holds everything else the text output shows. Standard library only.
"""

import json
import operator
import resource
import threading
from pathlib import Path

SCHEMA = 1

COMPARISONS = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}


def target_met(op, threshold, value):
    """Whether ``value`` meets ``op threshold``, e.g. ``target_met("<=", 20, 16.9)``."""
    return COMPARISONS[op](value, threshold)


def target(text, op, threshold, value, *, applicable=True, why=""):
    """A target and, when it applies to this run, whether ``value`` meets it."""
    if op not in COMPARISONS:
        raise ValueError(f"unknown comparison {op!r}")
    return {
        "text": text,
        "op": op,
        "value": threshold,
        "applicable": applicable,
        "met": target_met(op, threshold, value) if applicable else None,
        **({"why": why} if why else {}),
    }


def peak_rss_mib():
    """This process's peak resident memory so far (``ru_maxrss`` is KiB on Linux)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def record_write(path, record):
    """Write ``record`` as indented JSON to ``path``, creating its directory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema": SCHEMA, **record}, indent=2, sort_keys=True) + "\n")


def _rss_bytes():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class RssSampler:
    """The process's resident memory while the block runs: at its start and at its peak."""

    def __init__(self, interval=0.02):
        self.interval = interval
        self.start = self.peak = 0
        self._stop = threading.Event()

    def _sample(self):
        while not self._stop.wait(self.interval):
            self.peak = max(self.peak, _rss_bytes())

    def __enter__(self):
        self.start = self.peak = _rss_bytes()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_bytes())

    def joined(self, later):
        """This block and a ``later`` one taken as one: the first start, the higher peak."""
        both = RssSampler(self.interval)
        both.start, both.peak = self.start, max(self.peak, later.peak)
        return both
