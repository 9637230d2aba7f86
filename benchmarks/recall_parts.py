"""What each part of a recall costs, measured in one process
(``manage.py benchmark_recall_cpu --parts``).

Leaving a part out of recall, or running it twice, and measuring recall beside the same
recall as it is gives that part's CPU: the difference. A shared machine drifts, within
seconds, by more than a small part costs, so within each round the variants take turns
``BLOCK`` recalls at a time (every other turn in reverse order), and every variant sends
the same queries (each has its own draw, restarted from the round's seed). The cost is
the median of the rounds' differences.

A part is measured as the code has it, by replacing one name for the variant's turns:

- ``access-record``: the access record left out (``REVERIE_ACCESS["record"]`` off);
- ``masking``: masking secrets in the answer left out (each item given as it is);
- ``candidates``: the statements that find and rank the candidates run twice;
- ``rows``: the statements that read the rows and their sources run twice;
- ``selector``: the recall selector left out (``memory.selectors.recall.recall``: finding,
  reading, masking and fitting the answer to its budget), the view given an answer of
  nothing. What it leaves is the request path every recall takes whatever it finds:
  middleware, DRF's dispatch, authentication, reading the input, the access record (of
  nothing) and the answer.

A part recall can answer without is left out; one without which there is no answer
(candidates, rows) is run twice instead, the second answer given. A diagnostic without
a target, as the command is.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict
from unittest import mock

from django.conf import settings
from django.core.management.base import CommandError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import override_settings

from benchmarks.load_api import Fixture, clock_ticks
from benchmarks.recall_cpu import Backend, Requests, word_draw
from benchmarks.suite import BenchmarkError
from memory.api.views import recall as recall_view
from memory.selectors import recall as recall_selectors
from memory.selectors.recall import RecallResult

AS_IT_IS = "as it is"
# Recalls a variant makes before the next takes its turn: short enough that the machine's
# drift falls alike on every variant, long enough that the backend's CPU, read in ticks
# of 10 ms, is read to a few per cent.
BLOCK = 50


def _twice(function: Callable[..., Any]) -> Callable[..., Any]:
    def twice(*args: Any, **kwargs: Any) -> Any:
        function(*args, **kwargs)
        return function(*args, **kwargs)

    return twice


@contextlib.contextmanager
def _run_twice(name: str) -> Iterator[None]:
    with mock.patch.object(recall_selectors, name, _twice(getattr(recall_selectors, name))):
        yield


@contextlib.contextmanager
def _without_masking() -> Iterator[None]:
    with mock.patch.object(recall_selectors, "_masked", lambda item: item):
        yield


@contextlib.contextmanager
def _without_access_record() -> Iterator[None]:
    with override_settings(REVERIE_ACCESS={**settings.REVERIE_ACCESS, "record": False}):
        yield


def _nothing_found(**kwargs: Any) -> RecallResult:
    return RecallResult(items=[], terms=[], chars=0)


@contextlib.contextmanager
def _without_selector() -> Iterator[None]:
    # The name the view calls, so that everything around the selector runs as it is.
    with mock.patch.object(recall_view, "recall", _nothing_found):
        yield


@dataclass(frozen=True)
class Part:
    """A part of recall and how recall is run to measure it: ``left out`` or ``run twice``
    (``sign`` turns the variant's difference from recall as it is into the part's cost)."""

    how: str
    change: Callable[[], contextlib.AbstractContextManager[None]]

    @property
    def sign(self) -> int:
        return -1 if self.how == "left out" else 1


PARTS: dict[str, Part] = {
    "access-record": Part("left out", _without_access_record),
    "masking": Part("left out", _without_masking),
    "candidates": Part("run twice", lambda: _run_twice("_searched")),
    "rows": Part("run twice", lambda: _run_twice("recall_rows")),
    "selector": Part("left out", _without_selector),
}


def parts_argument(value: str) -> list[str]:
    """An ``argparse`` type: a comma-separated list of ``PARTS``' names, each once."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PARTS]
    if unknown or not names:
        raise CommandError(
            f"Expected parts of recall among {', '.join(PARTS)}, comma-separated; got {value!r}."
        )
    return list(dict.fromkeys(names))


class VariantCpu(TypedDict):
    """Recall's CPU per request in one round, as it is or with one part changed."""

    round: int
    variant: str
    python_ms: float
    postgres_ms: float | None


class PartCost(TypedDict):
    """A part's CPU per recall: the median of the rounds' differences; PostgreSQL's is None
    unless every round read it."""

    part: str
    how: str
    python_ms: float
    postgres_ms: float | None


class PathCpu(TypedDict):
    """What a recall's request path costs, around the selector: the median over rounds of
    recall with the selector left out; PostgreSQL's is None unless every round read it."""

    python_ms: float
    postgres_ms: float | None


class PartsCpu(TypedDict):
    rounds: list[VariantCpu]
    costs: list[PartCost]
    request_path: PathCpu | None


def variant_order(variants: Sequence[str], turn: int) -> list[str]:
    """Every other turn reversed, so that a slow moment of the machine does not always
    fall on the same variant."""
    return list(variants) if turn % 2 else list(variants)[::-1]


def part_costs(rounds: Sequence[VariantCpu], parts: Sequence[str]) -> list[PartCost]:
    """Each part's cost from the rounds: its variant's difference from recall as it is in
    the same round, turned by how it was measured, and the median over the rounds."""
    base = {row["round"]: row for row in rounds if row["variant"] == AS_IT_IS}
    costs: list[PartCost] = []
    for name in parts:
        sign = PARTS[name].sign
        python, postgres = [], []
        for row in rounds:
            if row["variant"] != name:
                continue
            other = base[row["round"]]
            python.append(sign * (row["python_ms"] - other["python_ms"]))
            if row["postgres_ms"] is not None and other["postgres_ms"] is not None:
                postgres.append(sign * (row["postgres_ms"] - other["postgres_ms"]))
        if not python:
            raise BenchmarkError(f"No round measured recall with {name} changed.")
        costs.append(
            {
                "part": name,
                "how": PARTS[name].how,
                "python_ms": statistics.median(python),
                "postgres_ms": statistics.median(postgres)
                if len(postgres) == len(python)
                else None,
            }
        )
    return costs


def request_path_cost(rounds: Sequence[VariantCpu]) -> PathCpu | None:
    """The request path's CPU per recall, where the selector was left out; else None."""
    left = [row for row in rounds if row["variant"] == "selector"]
    if not left:
        return None
    postgres = [row["postgres_ms"] for row in left if row["postgres_ms"] is not None]
    return {
        "python_ms": statistics.median(row["python_ms"] for row in left),
        "postgres_ms": statistics.median(postgres) if len(postgres) == len(left) else None,
    }


def _changed(variant: str) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext() if variant == AS_IT_IS else PARTS[variant].change()


def _block(requests: Requests, backend: Backend, count: int) -> tuple[float, float | None]:
    """``count`` recalls: this process's CPU seconds and the backend's (None if unread)."""
    before = backend.ticks()
    started = time.process_time()
    for _ in range(count):
        requests.send("recall")
    python = time.process_time() - started
    after = backend.ticks()
    if before is None or after is None:
        return python, None
    return python, (after - before) / clock_ticks()


def parts_measure(
    connection: BaseDatabaseWrapper,
    fixture: Fixture,
    *,
    parts: Sequence[str],
    requests: int,
    warmup: int,
    rounds: int,
    words: str,
    seed: int,
    progress: Callable[[str], None],
    block: int = BLOCK,
) -> PartsCpu:
    """Each round, ``requests`` recalls as it is and as many with each part changed, the
    variants taking turns ``block`` recalls at a time, each sending the same queries."""
    draw = word_draw(words, fixture["vocabulary"])
    connection.ensure_connection()
    backend = Backend(connection)
    measured: list[VariantCpu] = []
    for round_ in range(1, rounds + 1):
        variants = [AS_IT_IS, *parts]
        # One stream of requests per variant, all from the round's seed: the same queries
        # in the same order, each variant at its own place in them.
        streams = {variant: Requests(fixture, draw, seed + round_) for variant in variants}
        for variant in variants:
            with _changed(variant):
                for _ in range(warmup):
                    streams[variant].send("recall")
        python = dict.fromkeys(variants, 0.0)
        postgres: dict[str, float | None] = dict.fromkeys(variants, 0.0)
        for index, start in enumerate(range(0, requests, block)):
            count = min(block, requests - start)
            for variant in variant_order(variants, round_ + index):
                with _changed(variant):
                    cpu, backend_cpu = _block(streams[variant], backend, count)
                python[variant] += cpu
                so_far = postgres[variant]
                postgres[variant] = (
                    None if so_far is None or backend_cpu is None else so_far + backend_cpu
                )
        for variant in variants:
            spent = postgres[variant]
            measured.append(
                {
                    "round": round_,
                    "variant": variant,
                    "python_ms": 1000.0 * python[variant] / requests,
                    "postgres_ms": None if spent is None else 1000.0 * spent / requests,
                }
            )
            progress(
                f"round {round_}: recall {variant}: {measured[-1]['python_ms']:.3f} ms of Python"
            )
    return {
        "rounds": measured,
        "costs": part_costs(measured, parts),
        "request_path": request_path_cost(measured),
    }
