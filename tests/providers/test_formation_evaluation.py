"""`evaluate_formation` measures provider-assisted formation on LoCoMo and the held-out
corpus; it certifies nothing (formation_provider is certified by provider qualification,
tests/providers/test_qualification.py), and without a provider the capability stays off."""

import json

import pytest
from django.core.management import CommandError, call_command

from common.services.flags import flag_set
from core.errors import ReverieError
from evaluation.models import Certificate
from tests.evaluation.fixtures import write_tiny_dataset

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


def test_its_results_cannot_certify_formation_provider(evaluated):
    with pytest.raises(CommandError, match="certified by the qualification one"):
        call_command(
            "certify", "--results", str(evaluated.results), "--capability", "formation_provider"
        )
    assert not Certificate.objects.exists()


def test_the_evaluation_records_both_arms_and_what_its_metrics_follow_from(
    evaluated, fake_provider
):
    results = json.loads(evaluated.read_text())

    metrics = results["arms"]["formation_provider"]
    assert results["meta"]["provider"].startswith(f"{fake_provider.base_url} fake-1 price:")
    assert results["meta"]["evaluation"] == "formation"
    assert metrics["facts"] == len(results["labels"]["facts"]) > 0
    assert metrics["heldout_items"] == 2
    assert metrics["model_accepted"] > 0 and metrics["fabricated"] == 0
    assert fake_provider.requests > 0


def test_without_a_provider_the_capability_cannot_be_switched_on(db, settings):
    settings.REVERIE_PROVIDER = {**settings.REVERIE_PROVIDER, "base_url": "", "model": ""}

    with pytest.raises(ReverieError, match="none is configured"):
        flag_set(key="formation_provider", enabled=True)


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
