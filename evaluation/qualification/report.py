"""The qualification table: each figure of both arms side by side, with its bar and verdict."""

from typing import Any

from evaluation.certificates import Capability, threshold_failures

# The figures shown, in order, with the deterministic arm's counterpart where there is one.
FIGURES = {
    "formation": (
        ("cases", None),
        ("failed", None),
        ("expected_single_message", None),
        ("expected_multi_message", None),
        ("recall_single_message", "recall_single_message_deterministic"),
        ("recall_multi_message", "recall_multi_message_deterministic"),
        ("recall_lift_single_message", None),
        ("recall_lift_multi_message", None),
        ("outputs", "outputs_deterministic"),
        ("precision", "precision_deterministic"),
        ("precision_margin", None),
        ("unsafe_stored", "unsafe_stored_deterministic"),
        ("overrules", None),
        ("fabricated", None),
        ("model_returned", None),
        ("model_refused", None),
        ("model_refused_share", None),
        ("fallbacks", None),
    ),
    "reconsolidation": (
        ("cases", None),
        ("failed", None),
        ("labelled_merges", None),
        ("merges_found", "merges_found_deterministic"),
        ("connections_labelled", None),
        ("connections_found", "connections_found_deterministic"),
        ("found_lift", None),
        ("false_merges", "false_merges_deterministic"),
        ("connection_precision", "connection_precision_deterministic"),
        ("connection_precision_margin", None),
        ("labelled_notices", None),
        ("missed_notices", "missed_notices_deterministic"),
        ("missed_notices_increase", None),
        ("privacy_failures", None),
        ("atomic_recall_drop", None),
        ("model_proposed", None),
        ("model_refused", None),
        ("model_refused_share", None),
    ),
}


def _bar(bounds: dict[str, float] | None) -> str:
    if not bounds:
        return ""
    return " ".join(f"{'>=' if key == 'min' else '<='} {value}" for key, value in bounds.items())


def _value(value: object) -> str:
    return "-" if value is None else str(value)


def figure_rows(spec: Capability, metrics: dict[str, Any]) -> list[str]:
    """The table's lines: figure, deterministic, with the provider, bar, verdict."""
    rows = [f"{'figure':<30} {'deterministic':>14} {'with provider':>14}  {'bar':<14} verdict"]
    for name, baseline in FIGURES[spec.qualification]:
        bounds = spec.thresholds.get(name)
        verdict = ""
        if bounds is not None:
            verdict = "FAIL" if threshold_failures(metrics, {name: bounds}) else "ok"
        rows.append(
            f"{name:<30} {_value(metrics.get(baseline)) if baseline else '':>14} "
            f"{_value(metrics.get(name)):>14}  {_bar(bounds):<14} {verdict}".rstrip()
        )
    return rows
