"""The evidence for provider-assisted formation: coverage on LoCoMo, precision held out.

Two arms read the same data without storing anything: ``deterministic`` (the
configured extractor) and ``formation_provider`` (the same, assisted by the
configured provider, called as the evaluation runner may call it). On the
LoCoMo conversations each speaker in turn plays the owner
(``evaluation.formation_coverage``); on the frozen held-out part of the labelled
corpus every accepted proposal is matched against the labels
(``formation.scoring``). The results keep the observations the metrics
follow from, so that a reader can recount them. It measures; it certifies
nothing: formation_provider is certified by provider qualification
(``evaluation.qualification``) on data shipped with Reverie.
"""

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.formation_coverage import coverage
from evaluation.locomo import Dataset, DatasetError, load_dataset
from formation.candidates import MemoryCandidateExtractor
from formation.hybrid import HybridExtractor
from formation.scoring import CorpusItem, load_corpus, score
from formation.services import configured_extractor
from providers.config import provider_config

from .bindings import binding_text, provider_terms
from .provenance import code_digest, policy_versions

DETERMINISTIC = "deterministic"
PROVIDER = "formation_provider"
# The frozen held-out part of the labelled corpus.
HELDOUT = Path(__file__).parent / "fixtures" / "formation_heldout.jsonl"


class InputError(ValueError):
    """The evaluation cannot run on its inputs (its files, the configured provider); the
    message says why."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inputs_digest(dataset_bytes: bytes, heldout_bytes: bytes) -> str:
    return sha256(bytes.fromhex(sha256(dataset_bytes)) + bytes.fromhex(sha256(heldout_bytes)))


def formation_labels(dataset: Dataset, heldout: Sequence[CorpusItem]) -> dict[str, Any]:
    """What the metrics are counted against: every fact of the dataset, and the number of
    held-out items."""
    return {"facts": _fact_keys(dataset), "heldout_items": len(heldout)}


def _observations(
    dataset: Dataset, heldout: Sequence[CorpusItem], extractor: MemoryCandidateExtractor
) -> dict[str, Any]:
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


def _fact_keys(dataset: Dataset) -> list[str]:
    return [
        f"{conversation.sample_id}:{number}"
        for conversation in dataset.conversations
        for number, _ in enumerate(conversation.facts)
    ]


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _arm_figures(facts: set[str], observed: dict[str, Any]) -> dict[str, Any]:
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


def formation_metrics(results: dict[str, Any], arm: str = PROVIDER) -> dict[str, Any]:
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
    *,
    dataset: Dataset,
    dataset_bytes: bytes,
    heldout: Sequence[CorpusItem],
    heldout_bytes: bytes,
    deterministic: MemoryCandidateExtractor,
    assisted: MemoryCandidateExtractor,
    provider: str,
) -> dict[str, Any]:
    """results.json of one formation evaluation (``evaluate_formation``)."""
    results: dict[str, Any] = {
        "meta": {
            "evaluation": "formation",
            "policy_versions": policy_versions(),
            "code_digests": {part: code_digest([part]) for part in ("formation", PROVIDER)},
            "dataset_digest": inputs_digest(dataset_bytes, heldout_bytes),
            "provider": provider,
        },
        "labels": formation_labels(dataset, heldout),
        "observed": {
            DETERMINISTIC: _observations(dataset, heldout, deterministic),
            PROVIDER: _observations(dataset, heldout, assisted),
        },
    }
    results["arms"] = {PROVIDER: formation_metrics(results)}
    return results


def evaluate_formation(
    *, locomo: str | Path, heldout: str | Path = HELDOUT, out_dir: str | Path
) -> dict[str, Any]:
    """Run both arms over the LoCoMo file ``locomo`` and the labelled corpus ``heldout``,
    write ``out_dir``/results.json and return the results, or raise ``InputError``.

    Calls the configured provider once per LoCoMo session and speaker and once per
    corpus message, within formation's budget and the global daily spend cap.
    """
    config = provider_config()
    if config is None:
        raise InputError(
            "no provider is configured: set REVERIE_PROVIDER_BASE_URL and "
            "REVERIE_PROVIDER_MODEL (`manage.py fake_provider` serves a fake one)"
        )
    dataset_bytes = _read(locomo)
    try:
        dataset = load_dataset(dataset_bytes)
    except DatasetError as error:
        raise InputError(f"{locomo} is not a LoCoMo-format dataset: {error}") from None
    heldout_bytes = _read(heldout)
    try:
        heldout_items = load_corpus(heldout)
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"{heldout} is not a labelled corpus: {error}") from None
    results = formation_results(
        dataset=dataset,
        dataset_bytes=dataset_bytes,
        heldout=heldout_items,
        heldout_bytes=heldout_bytes,
        deterministic=configured_extractor(),
        assisted=HybridExtractor(configured_extractor(), config=config, evaluation=True),
        provider=binding_text(provider_terms(config)),
    )
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True))
    return results


def _read(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
