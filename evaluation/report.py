"""The HTML report of an evaluation: per-category tables and a bar chart comparing arms."""

from pathlib import Path
from typing import Any

from django.template.loader import render_to_string

# The object-oriented API draws straight to a file: no pyplot state, no screen.
from matplotlib.figure import Figure

from .results import KS

CATEGORY_NAMES = {
    "1": "multi-hop",
    "2": "temporal",
    "3": "open-domain",
    "4": "single-hop",
    "5": "adversarial",
}
CHART = "recall.png"


def _chart(results: dict[str, Any], path: Path) -> None:
    arms = list(results["arms"])
    groups = [*(f"cat {c}" for c in ("1", "2", "3", "4")), "1-4"]
    figure = Figure(figsize=(8, 4), dpi=100)
    axes = figure.subplots()
    width = 0.8 / max(len(arms), 1)
    for index, arm in enumerate(arms):
        metrics = results["arms"][arm]
        values = [
            (metrics["by_category"].get(c) or {}).get("evidence_recall@10") or 0.0
            for c in ("1", "2", "3", "4")
        ] + [metrics["evidence_recall@10"] or 0.0]
        positions = [group + index * width for group in range(len(groups))]
        axes.bar(positions, values, width=width, label=arm)
    axes.set_xticks([group + width * (len(arms) - 1) / 2 for group in range(len(groups))])
    axes.set_xticklabels(groups)
    axes.set_ylim(0, 1)
    axes.set_ylabel("evidence recall@10")
    axes.set_title("Evidence recall@10 by question category")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)


def _rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for arm, metrics in results["arms"].items():
        categories: list[dict[str, Any]] = []
        for category, values in sorted(metrics["by_category"].items()):
            categories.append(
                {
                    "category": category,
                    "name": CATEGORY_NAMES.get(category, ""),
                    "questions": values.get("questions"),
                    "recall": [values.get(f"evidence_recall@{k}") for k in KS],
                }
            )
        derived = (metrics.get("reconsolidation") or {}).get("derived")
        rows.append(
            {
                "arm": arm,
                "metrics": metrics,
                "derived": None if derived is None else sum(derived.values()),
                "recall": [metrics[f"evidence_recall@{k}"] for k in KS],
                "categories": categories,
            }
        )
    return rows


def _paraphrase_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """A row per arm and split of the paraphrase set (``evaluation.paraphrase``)."""
    rows = []
    for arm, metrics in (results.get("paraphrase") or {}).get("arms", {}).items():
        for split, figures in [("all", metrics), *metrics["splits"].items()]:
            no_shared = metrics["categories"]["no_shared_words"] if split == "all" else {}
            rows.append(
                {
                    "arm": arm,
                    "split": split,
                    "figures": figures,
                    # Template names cannot hold "@".
                    "hits": [figures["hit@1"], figures["hit@3"], no_shared.get("hit@3")],
                }
            )
    return rows


def write_report(results: dict[str, Any], out_dir: str | Path) -> Path:
    """Write ``report.html`` and its chart into ``out_dir``; return the report's path."""
    out_dir = Path(out_dir)
    if results["arms"]:
        _chart(results, out_dir / CHART)
    html = render_to_string(
        "evaluation/report.html",
        {
            "meta": results["meta"],
            "rows": _rows(results),
            "ks": KS,
            "chart": CHART if results["arms"] else None,
            "paraphrase": _paraphrase_rows(results),
        },
    )
    path = out_dir / "report.html"
    path.write_text(html, encoding="utf-8")
    return path
