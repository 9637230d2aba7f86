"""formation_provider is switched on only with a certificate from `evaluate_formation` for
the configured provider, model and the current code; then, and only then, formation calls
the provider."""

import json

import pytest
from django.core.management import CommandError, call_command

from common.principal import principal_context
from common.selectors.flags import flag_cache_clear, flag_enabled
from common.services.flags import flag_set
from core.errors import ReverieError
from evaluation import certificates
from evaluation.bindings import privacy_digest
from evaluation.formation_evaluation import inputs_digest, sha256
from evaluation.models import Certificate
from formation.hybrid import HybridExtractor
from formation.services import formation_extractor, formation_sweep
from memory.models import Belief
from memory.services.sessions import session_close
from providers.config import provider_config
from tests.evaluation.fixtures import write_tiny_dataset
from tests.formation.formation_helpers import later
from tests.memory.helpers import conversation

HELDOUT = [
    {
        "id": "t1",
        "text": "I own a Kindle.",
        "expected": [
            {
                "type": "ownership",
                "subject": "device:kindle",
                "statement": "User owns a Kindle.",
                "polarity": "positive",
            }
        ],
        "tags": ["ownership"],
    },
    {"id": "t2", "text": "What time is it in Tokyo?", "expected": [], "tags": ["question"]},
]
# What the tiny data can show: the plumbing, not the evidence the real thresholds ask for.
TINY_THRESHOLDS = {
    "facts": {"min": 1},
    "coverage_lift": {"min": 0.0},
    "fabricated": {"max": 0},
    "heldout_precision_margin": {"min": -1.0},
}


class Evaluated:
    def __init__(self, results, dataset, heldout):
        self.results, self.dataset, self.heldout = results, dataset, heldout

    def read_text(self):
        return self.results.read_text()

    def write_text(self, text):
        self.results.write_text(text)


@pytest.fixture
def evaluated(db, tmp_path, provider_settings, fake_provider):
    heldout = tmp_path / "heldout.jsonl"
    heldout.write_text("\n".join(json.dumps(item) for item in HELDOUT))
    dataset = write_tiny_dataset(tmp_path)
    out = tmp_path / "out"
    call_command(
        "evaluate_formation",
        "--locomo",
        str(dataset),
        "--heldout",
        str(heldout),
        "--out",
        str(out),
    )
    return Evaluated(out / "results.json", dataset, heldout)


@pytest.fixture
def tiny_thresholds(settings, evaluated, monkeypatch):
    """The tiny data pinned in place of LoCoMo's and the repository's held-out corpus."""
    capabilities = dict(settings.REVERIE_CAPABILITIES)
    capabilities["formation_provider"] = {
        **capabilities["formation_provider"],
        "thresholds": TINY_THRESHOLDS,
        "datasets": {
            "dataset": sha256(evaluated.dataset.read_bytes()),
            "heldout": sha256(evaluated.heldout.read_bytes()),
        },
    }
    settings.REVERIE_CAPABILITIES = capabilities
    monkeypatch.setattr(certificates, "HELDOUT", evaluated.heldout)


def certify(evaluated, *, dataset=True):
    arguments = ["--results", str(evaluated.results), "--capability", "formation_provider"]
    if dataset:
        arguments += ["--dataset", str(evaluated.dataset)]
    call_command("certify", *arguments)


def edited(path, edit):
    results = json.loads(path.read_text())
    edit(results)
    path.write_text(json.dumps(results))
    return path


def test_the_evaluation_records_both_arms_and_what_its_metrics_follow_from(
    evaluated, fake_provider
):
    results = json.loads(evaluated.read_text())

    metrics = results["arms"]["formation_provider"]
    assert results["meta"]["provider"].startswith(
        f"{fake_provider.base_url} fake-1 price:0.15/0.6 "
    )
    assert results["meta"]["evaluation"] == "formation"
    assert metrics["facts"] == len(results["labels"]["facts"]) > 0
    assert metrics["heldout_items"] == 2
    assert metrics["model_accepted"] > 0 and metrics["fabricated"] == 0
    assert fake_provider.requests > 0


def test_an_evaluation_of_other_data_does_not_certify(evaluated, monkeypatch):
    monkeypatch.setattr(certificates, "HELDOUT", evaluated.heldout)

    with pytest.raises(CommandError, match="the dataset .* is not the one formation_provider"):
        certify(evaluated)
    assert not Certificate.objects.exists()


def test_the_real_thresholds_refuse_a_tiny_evaluation(evaluated, tiny_thresholds, settings):
    capabilities = dict(settings.REVERIE_CAPABILITIES)
    capabilities["formation_provider"] = {
        **capabilities["formation_provider"],
        "thresholds": settings.REVERIE_CAPABILITIES["formation_provider"]["thresholds"]
        | {"facts": {"min": 1000}, "heldout_items": {"min": 50}},
    }
    settings.REVERIE_CAPABILITIES = capabilities

    with pytest.raises(CommandError, match="facts = .* is below the minimum 1000"):
        certify(evaluated)


def test_without_the_dataset_nothing_is_certified(evaluated, tiny_thresholds):
    with pytest.raises(CommandError, match="pass --dataset FILE"):
        certify(evaluated, dataset=False)


def test_an_edited_held_out_corpus_does_not_certify(
    evaluated, tiny_thresholds, tmp_path, monkeypatch
):
    edited_corpus = tmp_path / "edited.jsonl"
    edited_corpus.write_text(evaluated.heldout.read_text().replace("Tokyo", "Kyoto"))
    monkeypatch.setattr(certificates, "HELDOUT", edited_corpus)

    with pytest.raises(CommandError, match="the held-out corpus .* is not the one"):
        certify(evaluated)


def test_labels_in_the_results_are_not_believed(evaluated, tiny_thresholds):
    def inflate(results):
        extra = [f"conv-z:{n}" for n in range(2000)]
        results["labels"]["facts"] += extra
        results["observed"]["formation_provider"]["covered_facts"] += extra
        arm = results["arms"]["formation_provider"]
        arm["facts"] += 2000

    with pytest.raises(CommandError, match="do not follow from the recorded observations"):
        certify(edited(evaluated, inflate))


def test_edited_metrics_are_refused(evaluated, tiny_thresholds):
    def forge(results):
        results["arms"]["formation_provider"]["coverage_lift"] = 0.5

    with pytest.raises(CommandError, match="do not follow from the recorded observations"):
        certify(edited(evaluated, forge))


def test_a_fabricated_memory_fails_the_certificate(evaluated, tiny_thresholds):
    def fabricate(results):
        results["observed"]["formation_provider"]["model_fabricated"] = 1
        results["arms"]["formation_provider"]["fabricated"] = 1

    with pytest.raises(CommandError, match="fabricated = 1 is above the maximum 0"):
        certify(edited(evaluated, fabricate))


def test_results_of_another_model_are_refused(evaluated, tiny_thresholds, provider_settings):
    provider_settings.REVERIE_PROVIDER = {**provider_settings.REVERIE_PROVIDER, "model": "big-1"}

    with pytest.raises(CommandError, match="the configured one is"):
        certify(evaluated)


def test_without_a_provider_the_capability_cannot_be_switched_on(db, settings):
    settings.REVERIE_PROVIDER = {**settings.REVERIE_PROVIDER, "base_url": "", "model": ""}

    with pytest.raises(ReverieError, match="none is configured"):
        flag_set(key="formation_provider", enabled=True)


def test_a_certified_provider_is_called_by_formation_until_the_model_changes(
    owner, evaluated, tiny_thresholds, provider_settings, fake_provider
):
    certify(evaluated)
    certificate = Certificate.objects.get()
    assert certificate.provider_binding.startswith(f"{fake_provider.base_url} fake-1 price:")
    assert certificate.provider_terms == {
        "base_url": fake_provider.base_url,
        "model": "fake-1",
        "input_price": "0.15",
        "output_price": "0.6",
        "privacy": privacy_digest(provider_config()),
    }
    assert certificate.dataset_digest == inputs_digest(
        evaluated.dataset.read_bytes(), evaluated.heldout.read_bytes()
    )
    flag_set(key="formation_provider", enabled=True)
    assert isinstance(formation_extractor(), HybridExtractor)
    session, _ = conversation(owner, "I adopted a cat named Miso.")
    session_close(principal=owner, session_id=session.public_id)
    before = fake_provider.requests

    (formation,) = formation_sweep(now=later())

    assert fake_provider.requests == before + 1
    assert formation.policy_version == "formation@4"
    with principal_context(owner):
        assert Belief.objects.filter(owner=owner, model_proposed=True).exists()

    provider_settings.REVERIE_PROVIDER = {**provider_settings.REVERIE_PROVIDER, "model": "big-1"}
    flag_cache_clear()
    assert flag_enabled("formation_provider") is False
    assert not isinstance(formation_extractor(), HybridExtractor)


def test_the_formation_evaluation_needs_a_configured_provider(settings, tmp_path):
    settings.REVERIE_PROVIDER = {**settings.REVERIE_PROVIDER, "base_url": ""}
    dataset = write_tiny_dataset(tmp_path)

    with pytest.raises(CommandError, match="no provider is configured"):
        call_command("evaluate_formation", "--locomo", str(dataset), "--out", str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("locomo", "heldout", "reason"),
    [
        ("missing.json", "heldout.jsonl", "cannot read .*missing.json: No such file"),
        ("broken.json", "heldout.jsonl", "broken.json is not a LoCoMo-format dataset: not JSON"),
        ("tiny-locomo.json", "missing.jsonl", "cannot read .*missing.jsonl: No such file"),
        ("tiny-locomo.json", "broken.json", "broken.json is not a labelled corpus"),
    ],
)
def test_the_formation_evaluation_refuses_inputs_it_cannot_read(
    provider_settings, fake_provider, tmp_path, locomo, heldout, reason
):
    write_tiny_dataset(tmp_path)
    (tmp_path / "heldout.jsonl").write_text("\n".join(json.dumps(item) for item in HELDOUT))
    (tmp_path / "broken.json").write_text("{")

    with pytest.raises(CommandError, match=reason):
        call_command(
            "evaluate_formation",
            "--locomo",
            str(tmp_path / locomo),
            "--heldout",
            str(tmp_path / heldout),
            "--out",
            str(tmp_path / "out"),
        )
    assert fake_provider.requests == 0
    assert not (tmp_path / "out").exists()
