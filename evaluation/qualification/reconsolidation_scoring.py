"""Scores of reconsolidation qualification. Pure functions: no database, no I/O.

Each arm is scored by the reconsolidation evaluation's own scorer
(``evaluation.reconsolidation_scoring``); qualification adds what the provider
arm found beyond the deterministic passes (labelled merges and connections), what
it cost in precision and missed notices, and how much of what the provider
proposed the local admission rules had to refuse.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from evaluation.reconsolidation_scoring import reconsolidation_metrics


def _found_merges(metrics: dict[str, Any]) -> int:
    found: int = metrics["labelled_merges"] - metrics["missed_merges"]
    return found


def _precision(metrics: dict[str, Any]) -> float:
    # No connection proposed, none wrong: an arm that proposes none loses no precision.
    value = metrics["connection_precision"]
    return 1.0 if value is None else float(value)


def _proposals(observations: Iterable[dict[str, Any]]) -> tuple[int, int]:
    proposed = refused = 0
    for observation in observations:
        for review in observation.get("reviews", ()):
            proposed += review.get("proposed", 0)
            refused += sum(review.get("dropped", {}).values())
    return proposed, refused


def reconsolidation_qualification_metrics(
    cases: Sequence[dict[str, Any]], observed: dict[str, Any], *, k: int, arm: str, baseline: str
) -> dict[str, Any]:
    """The provider arm's figures beside the deterministic passes', and the lifts between."""
    base = reconsolidation_metrics(cases, observed[baseline], k=k)
    assisted = reconsolidation_metrics(cases, observed[arm], k=k)
    proposed, refused = _proposals(observed[arm])
    found_lift = (_found_merges(assisted) - _found_merges(base)) + (
        assisted["connections_found"] - base["connections_found"]
    )
    return {
        "cases": len(cases),
        "failed": assisted["failed"] + base["failed"],
        "labelled_merges": assisted["labelled_merges"],
        "merges_found": _found_merges(assisted),
        "merges_found_deterministic": _found_merges(base),
        "connections_labelled": assisted["connections_labelled"],
        "connections_found": assisted["connections_found"],
        "connections_found_deterministic": base["connections_found"],
        "found_lift": found_lift,
        "false_merges": assisted["false_merges"],
        "false_merges_deterministic": base["false_merges"],
        "connection_precision": _precision(assisted),
        "connection_precision_deterministic": _precision(base),
        "connection_precision_margin": round(_precision(assisted) - _precision(base), 4),
        "labelled_notices": assisted["labelled_notices"],
        "missed_notices": assisted["missed_notices"],
        "missed_notices_deterministic": base["missed_notices"],
        "missed_notices_increase": assisted["missed_notices"] - base["missed_notices"],
        "privacy_failures": assisted["privacy_failures"],
        "atomic_recall_drop": assisted["atomic_recall_drop"],
        "model_proposed": proposed,
        "model_refused": refused,
        "model_refused_share": round(refused / proposed, 4) if proposed else 0.0,
    }
