"""The reconsolidation_provider capability: the three-arm evaluation measures it against the
configured provider but certifies nothing (provider qualification does); a certificate is bound
to the code, provider, model, prices and privacy settings, and rests on a current
formation_provider certificate with measured figures."""

import json
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command

from evaluation import certificates
from evaluation.certificates import certificate_refusal
from evaluation.models import Certificate
from tests.certificates import certificate_create

pytestmark = pytest.mark.django_db
CAPABILITY = "reconsolidation_provider"


def evaluate(tmp_path, fixtures=None):
    out = tmp_path / "out"
    arguments = [
        "evaluate_reconsolidation",
        "--arms",
        "control,reconsolidation,reconsolidation_provider",
        "--out",
        str(out),
    ]
    if fixtures is not None:
        arguments += ["--fixtures", str(fixtures)]
    call_command(*arguments)
    return out


def certify(out):
    call_command("certify", "--results", str(out / "results.json"), "--capability", CAPABILITY)


def certify_formation_provider(**fields):
    """A certificate of formation_provider for the current code and provider, as certify
    would store it (its own evaluation has tests of its own)."""
    return certificate_create("formation_provider", **fields)


def test_the_three_arms_run_in_order_and_the_control_is_frozen_first(
    provider_settings, fake_provider, tmp_path
):
    out = evaluate(tmp_path)

    results = json.loads((out / "results.json").read_bytes())
    control = json.loads((out / "control.json").read_bytes())
    assert list(results["arms"]) == ["control", "reconsolidation", "reconsolidation_provider"]
    assert control["observed"] == results["observed"]["control"]
    assert all(o["derived"] == [] for o in control["observed"])
    assert results["arms"]["reconsolidation_provider"]["false_merges"] == 0
    assert results["meta"]["provider"] == certificates.current_provider(
        certificates.capability(CAPABILITY)
    )
    assert "provider_calls" in results["meta"]
    # Every bank's calls are kept in its observation, whatever became of them.
    assert all("provider_calls" in o for o in results["observed"]["reconsolidation_provider"])


def test_it_may_be_on_only_on_a_measured_formation_provider_certificate(
    provider_settings, fake_provider, tmp_path, settings, monkeypatch, forget_digests
):
    certificate_create(CAPABILITY)
    assert "rests on formation_provider, which has no certificate" in (
        certificate_refusal(CAPABILITY)
    )

    # An upstream certificate whose figures were never measured is no ground to rest on:
    # not to be switched on, nor to qualify on.
    certify_formation_provider(metrics={})
    assert "does not meet formation_provider's current" in certificate_refusal(CAPABILITY)
    with pytest.raises(CommandError, match="does not meet formation_provider's current"):
        call_command("qualify_provider", "reconsolidation", "--yes", "--out", str(tmp_path))
    assert fake_provider.requests == 0

    certify_formation_provider()
    assert certificate_refusal(CAPABILITY) is None

    # Letting more leave the machine needs new evidence, for both provider capabilities.
    settings.REVERIE_EGRESS = {**settings.REVERIE_EGRESS, "residency": ["local", "us"]}
    assert "rests on formation_provider, which has no certificate" in (
        certificate_refusal(CAPABILITY)
    )
    certify_formation_provider()
    assert "the egress rules changed" in certificate_refusal(CAPABILITY)
    settings.REVERIE_EGRESS = {**settings.REVERIE_EGRESS, "residency": ["local"]}
    assert certificate_refusal(CAPABILITY) is None

    # A change to the text rules the planners and the recall path import invalidates it
    # (and the formation_provider certificate it rests on).
    base = Path(django_settings.BASE_DIR)
    text = base / "memory" / "text.py"
    changed = text.read_bytes() + b"\n# changed\n"
    real_read_bytes = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda path: changed if path == text else real_read_bytes(path)
    )
    forget_digests()
    refusal = certificate_refusal(CAPABILITY)
    assert refusal is not None and "reconsolidation_provider" in refusal
    monkeypatch.undo()
    forget_digests()
    assert certificate_refusal(CAPABILITY) is None


def test_its_results_cannot_certify_reconsolidation_provider(
    provider_settings, fake_provider, tmp_path
):
    certify_formation_provider()
    out = evaluate(tmp_path)

    with pytest.raises(CommandError, match="certified by the qualification one"):
        certify(out)
    assert not Certificate.objects.filter(capability=CAPABILITY).exists()


def test_without_a_provider_the_arm_cannot_run(tmp_path):
    with pytest.raises(CommandError, match="none is configured"):
        evaluate(tmp_path)
