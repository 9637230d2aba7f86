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
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Literal, NotRequired, Self, TypedDict

SCHEMA = 1

Comparison = Literal[">=", ">", "<=", "<", "=="]


class Target(TypedDict):
    """What a figure is judged against: ``op value``, and whether this run met it (None
    when the target does not apply to this run, ``why`` saying so)."""

    text: str
    op: Comparison
    value: float
    applicable: bool
    met: bool | None
    why: NotRequired[str]


class Baseline(TypedDict):
    """The same-run figure a figure is compared with."""

    name: str
    unit: str
    value: float | None


class Ratio(TypedDict):
    """A figure over its baseline (or the other way round, as ``name`` says)."""

    name: str
    value: float | None
    target: NotRequired[Target | None]


class Figure(TypedDict):
    """One judged figure of a run; ``baseline`` and ``ratio`` are None when the benchmark
    has none for it."""

    name: str
    unit: str
    value: float | None
    baseline: NotRequired[Baseline | None]
    ratio: NotRequired[Ratio | None]
    target: NotRequired[Target | None]


class PeakMemory(TypedDict):
    """The peak resident memory of a run, and whose it was."""

    mib: float
    of: str


class Record(TypedDict):
    """One run of a benchmark, as ``--json-out`` writes it (``schema`` added on writing)."""

    benchmark: str
    figures: list[Figure]
    peak_memory: PeakMemory
    # Everything else the text output shows, in each benchmark's own shape.
    details: dict[str, object]
    baseline_note: NotRequired[str]
    schema: NotRequired[int]


COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}


def target_met(op: str, threshold: float, value: float) -> bool:
    """Whether ``value`` meets ``op threshold``, e.g. ``target_met("<=", 20, 16.9)``."""
    return COMPARISONS[op](value, threshold)


def target(
    text: str,
    op: Comparison,
    threshold: float,
    value: float,
    *,
    applicable: bool = True,
    why: str = "",
) -> Target:
    """A target and, when it applies to this run, whether ``value`` meets it."""
    if op not in COMPARISONS:
        raise ValueError(f"unknown comparison {op!r}")
    made = Target(
        text=text,
        op=op,
        value=threshold,
        applicable=applicable,
        met=target_met(op, threshold, value) if applicable else None,
    )
    if why:
        made["why"] = why
    return made


def peak_rss_mib() -> float:
    """This process's peak resident memory so far (``ru_maxrss`` is KiB on Linux)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def record_write(path: str | Path, record: Record) -> None:
    """Write ``record`` as indented JSON to ``path``, creating its directory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema": SCHEMA, **record}, indent=2, sort_keys=True) + "\n")


def _rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class RssSampler:
    """The process's resident memory while the block runs: at its start and at its peak."""

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self.start = self.peak = 0
        self._stop = threading.Event()

    def _sample(self) -> None:
        while not self._stop.wait(self.interval):
            self.peak = max(self.peak, _rss_bytes())

    def __enter__(self) -> Self:
        self.start = self.peak = _rss_bytes()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_bytes())

    def joined(self, later: "RssSampler") -> "RssSampler":
        """This block and a ``later`` one taken as one: the first start, the higher peak."""
        both = RssSampler(self.interval)
        both.start, both.peak = self.start, max(self.peak, later.peak)
        return both
