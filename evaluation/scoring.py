"""Scores of a memory system's answers against LoCoMo labels. Pure functions: no database, no I/O.

The labels (which turns answer a question, its category, the authors' facts) live only in
this module and the runner that feeds it. The system under test is asked questions and
returns ranked items naming the turns they came from; it never sees the labels, so it cannot
fit to them, and a score measures retrieval rather than leakage.

Turn ids ("D1:3") repeat from one conversation to the next. Whatever is scored together must
use ids that are unique across it: score one conversation at a time, or qualify every id (in
evidence, in ``known_turns`` and in item sources alike) with its conversation.
"""

import math
from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from formation.scoring import ungrounded_terms

# Bounds the report size; a handful of examples is enough to see what kind of fabrication
# a run produces.
FABRICATION_EXAMPLES = 5


_K = TypeVar("_K", bound=Hashable)


@dataclass(frozen=True)
class Question:
    id: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    """One result returned for a question: the turns it was formed from and what it costs."""

    sources: tuple[str, ...]
    chars: int


@dataclass(frozen=True)
class Observation:
    """What the system returned for one question, best item first, or why asking failed."""

    question_id: str
    items: tuple[Item, ...]
    failed: str | None = None


def evidence_ids(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """The turn ids of a raw evidence list, in order, without blanks or repeats.

    An entry may hold several ids joined by ";" ("D8:6; D9:17"). ``None`` gives no ids; a
    bare string is read as a one-entry list rather than iterated character by character.
    """
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    ids = (part.strip() for entry in value for part in entry.split(";"))
    return tuple(dict.fromkeys(turn for turn in ids if turn))


def evidence_recall(
    question: Question, observation: Observation | None, k: int, known_turns: Collection[str]
) -> float | None:
    """Share of the question's known evidence found among the sources of the top ``k`` items.

    Evidence ids absent from ``known_turns`` are left out: a label naming no turn cannot be
    retrieved, and counting it would lower every system's score alike. ``None`` when no
    evidence is known, so the question can be left out of means rather than scored 0 or 1.
    A missing (``None``) or failed observation scores 0.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    known = [turn for turn in dict.fromkeys(question.evidence) if turn in known_turns]
    if not known:
        return None
    if observation is None or observation.failed is not None:
        return 0.0
    retrieved = {turn for item in observation.items[:k] for turn in item.sources}
    return sum(1 for turn in known if turn in retrieved) / len(known)


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _recall_key(k: int) -> str:
    return f"evidence_recall@{k}"


def recall_report(
    questions: Iterable[Question],
    observations: Iterable[Observation],
    known_turns: Collection[str],
    ks: Sequence[int] = (1, 5, 10),
    categories: Collection[int] = (1, 2, 3, 4),
) -> dict[str, Any]:
    """Evidence recall at each of ``ks``: overall, per category, and what could not be scored.

    The overall means cover the scorable questions whose category is in ``categories``;
    ``by_category`` reports every category present, excluded ones included, so adversarial
    questions (category 5, asking what the dialog never says) are seen without moving the
    headline. A question without an observation is a failed case with reason "missing".
    Failed cases score 0 and stay in the means, so failing never raises a score. Observations
    of questions not given are ignored; two observations of one question are an error.
    """
    by_question: dict[str, Observation] = {}
    for observation in observations:
        if observation.question_id in by_question:
            raise ValueError(f"two observations of question {observation.question_id}")
        by_question[observation.question_id] = observation

    overall: defaultdict[int, list[float]] = defaultdict(list)
    per_category: defaultdict[int, defaultdict[int, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    scored_per_category: defaultdict[int, int] = defaultdict(int)
    scored = 0
    unscorable: list[str] = []
    unknown: set[str] = set()
    failed_cases: list[dict[str, str]] = []
    for question in questions:
        unknown.update(turn for turn in question.evidence if turn not in known_turns)
        found = by_question.get(question.id)
        if found is None:
            failed_cases.append({"question_id": question.id, "reason": "missing"})
        elif found.failed is not None:
            failed_cases.append({"question_id": question.id, "reason": found.failed})
        # Present even when nothing in it is scorable, so the report shows the category exists.
        scores = per_category[question.category]
        if not any(turn in known_turns for turn in question.evidence):
            unscorable.append(question.id)
            continue
        scored_per_category[question.category] += 1
        counted = question.category in categories
        if counted:
            scored += 1
        for k in ks:
            recall = evidence_recall(question, found, k, known_turns)
            # Only a question without known evidence has no recall; it was left out above.
            assert recall is not None
            scores[k].append(recall)
            if counted:
                overall[k].append(recall)

    report: dict[str, Any] = {_recall_key(k): _mean(overall[k]) for k in ks}
    report["by_category"] = {
        str(category): {
            **{_recall_key(k): _mean(per_category[category][k]) for k in ks},
            "questions": scored_per_category[category],
        }
        for category in sorted(per_category)
    }
    report["questions"] = scored
    report["unscorable"] = unscorable
    report["unknown_evidence"] = sorted(unknown)
    report["failed_cases"] = failed_cases
    return report


def _nearest_rank(values: Iterable[int], percentile: int) -> int:
    """The smallest value with at least ``percentile`` per cent of ``values`` at or below it."""
    ordered = sorted(values)
    # Integer ceiling: 0.95 * 20 in floating point can land just above 19 and skip a rank.
    rank = max(1, -(-percentile * len(ordered) // 100))
    return ordered[rank - 1]


def context_cost(observations: Iterable[Observation]) -> dict[str, float | None]:
    """Characters of context returned per question: mean and 95th percentile.

    The percentile uses the nearest-rank method: the value at rank ceil(0.95 * n) of the
    sorted costs, so it is always a cost that occurred. A failed observation costs 0, as
    nothing reached the reader. Both figures are ``None`` without observations.
    """
    costs = [
        0 if observation.failed is not None else sum(item.chars for item in observation.items)
        for observation in observations
    ]
    if not costs:
        return {"context_chars_mean": None, "context_chars_p95": None}
    return {
        "context_chars_mean": round(sum(costs) / len(costs), 2),
        "context_chars_p95": float(_nearest_rank(costs, 95)),
    }


def formation_coverage(
    facts: Iterable[tuple[str, Iterable[str]]], formed_turns: Collection[str]
) -> dict[str, Any]:
    """Share of labelled facts whose evidence formed at least one belief.

    ``facts`` holds ``(text, evidence ids)`` pairs; one formed turn among a fact's evidence is
    enough, since a fact needs only one turn to be learned from.
    """
    total = 0
    covered = 0
    for _text, evidence in facts:
        total += 1
        if any(turn in formed_turns for turn in evidence):
            covered += 1
    return {
        "facts": total,
        "covered": covered,
        "formation_coverage": round(covered / total, 4) if total else None,
    }


def fabrication(
    beliefs: Iterable[tuple[str, Iterable[str]]], turn_texts: dict[str, str]
) -> dict[str, Any]:
    """Share of beliefs naming an entity or a number that their source turns do not contain.

    ``beliefs`` holds ``(statement, source turn ids)`` pairs. A source id missing from
    ``turn_texts`` contributes no text, so what only it could ground counts as fabricated:
    a belief is only as grounded as the turns that can be shown for it.
    """
    total = 0
    fabricated = 0
    examples: list[dict[str, Any]] = []
    for statement, sources in beliefs:
        total += 1
        terms = ungrounded_terms(statement, [turn_texts[s] for s in sources if s in turn_texts])
        if terms:
            fabricated += 1
            if len(examples) < FABRICATION_EXAMPLES:
                examples.append({"statement": statement, "terms": terms})
    return {
        "beliefs": total,
        "fabricated": fabricated,
        "fabrication": round(fabricated / total, 4) if total else 0.0,
        "examples": examples,
    }


def fuse(rankings: Iterable[Iterable[_K]], k: int = 60) -> list[_K]:
    """Reciprocal-rank fusion of ranked lists of hashable keys, best first.

    A key scores the sum of 1 / (k + rank) over the lists holding it, rank counted from 1;
    equal scores keep the order in which keys first appeared. A key repeated within one list
    counts once, at its best rank, so no list votes twice for it.
    """
    terms: dict[_K, list[float]] = {}
    for ranking in rankings:
        seen: set[_K] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            terms.setdefault(key, []).append(1 / (k + rank))
    # fsum is exact up to one final rounding, so keys with the same ranks in different lists
    # get identical scores and the tie rule, not summation order, decides between them.
    scores = {key: math.fsum(parts) for key, parts in terms.items()}
    # sorted is stable and dicts keep insertion order: ties stay in first-appearance order.
    return sorted(scores, key=lambda key: -scores[key])
