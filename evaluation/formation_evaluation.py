"""The evidence for provider-assisted formation: coverage on LoCoMo, precision held out.

Two arms read the same data without storing anything: ``deterministic`` (the
configured extractor) and ``formation_provider`` (the same, assisted by the
configured provider, called as the evaluation runner may call it). On the
LoCoMo conversations each speaker in turn plays the owner
(``formation_coverage.coverage``); on the frozen held-out part of the labelled
corpus every accepted proposal is matched against the labels
(``memory.formation.scoring``). The results keep the observations the metrics
follow from, so that ``certify`` recomputes them rather than trusting them.
"""

import hashlib

from evaluation.management.commands.formation_coverage import coverage
from memory.formation.scoring import score

from .provenance import code_digest, policy_versions

DETERMINISTIC = "deterministic"
PROVIDER = "formation_provider"


def _observations(dataset, heldout, extractor):
    report = coverage(dataset, extractor=extractor)
    quality = score(heldout, extractor=extractor)
    return {
        "covered_facts": sorted(report["covered_facts"]),
        "model_accepted": report["model_accepted"],
        "model_fabricated": report["model_fabricated"],
        "heldout": {
            "accepted": quality.accepted,
            "matched": quality.matched,
            "expected": quality.expected,
            "fabrications": quality.fabrications,
            "secrets_stored": quality.secrets_stored,
            "injections_stored": quality.injections_stored,
        },
    }


def _fact_keys(dataset):
    return [
        f"{conversation.sample_id}:{number}"
        for conversation in dataset.conversations
        for number, _ in enumerate(conversation.facts)
    ]


def _ratio(part, whole):
    return round(part / whole, 4) if whole else 0.0


def _arm_figures(facts, observed):
    heldout = observed["heldout"]
    covered = set(observed["covered_facts"]) & facts
    return {
        "coverage": _ratio(len(covered), len(facts)),
        "heldout_precision": _ratio(heldout["matched"], heldout["accepted"])
        if heldout["accepted"]
        else 1.0,
        "heldout_recall": _ratio(heldout["matched"], heldout["expected"]),
        "unsafe_stored": heldout["secrets_stored"] + heldout["injections_stored"],
    }


def formation_metrics(results, arm=PROVIDER):
    """The provider arm's metrics, recomputed from the recorded observations."""
    labels, observed = results["labels"], results["observed"]
    facts = set(labels["facts"])
    base = _arm_figures(facts, observed[DETERMINISTIC])
    assisted = _arm_figures(facts, observed[arm])
    return {
        "facts": len(facts),
        "heldout_items": labels["heldout_items"],
        "coverage": assisted["coverage"],
        "coverage_deterministic": base["coverage"],
        "coverage_lift": round(assisted["coverage"] - base["coverage"], 4),
        "fabricated": observed[arm]["model_fabricated"],
        "model_accepted": observed[arm]["model_accepted"],
        "heldout_precision": assisted["heldout_precision"],
        "heldout_precision_deterministic": base["heldout_precision"],
        "heldout_precision_margin": round(
            assisted["heldout_precision"] - base["heldout_precision"], 4
        ),
        "heldout_recall": assisted["heldout_recall"],
        "unsafe_stored": assisted["unsafe_stored"],
    }


def formation_results(
    *, dataset, dataset_bytes, heldout, heldout_bytes, deterministic, assisted, provider
):
    """results.json of one formation evaluation (``evaluate_formation``)."""
    results = {
        "meta": {
            "evaluation": "formation",
            "policy_versions": policy_versions(),
            "code_digests": {part: code_digest([part]) for part in ("formation", PROVIDER)},
            "dataset_digest": hashlib.sha256(
                hashlib.sha256(dataset_bytes).digest() + hashlib.sha256(heldout_bytes).digest()
            ).hexdigest(),
            "provider": provider,
        },
        "labels": {"facts": _fact_keys(dataset), "heldout_items": len(heldout)},
        "observed": {
            DETERMINISTIC: _observations(dataset, heldout, deterministic),
            PROVIDER: _observations(dataset, heldout, assisted),
        },
    }
    results["arms"] = {PROVIDER: formation_metrics(results)}
    return results
