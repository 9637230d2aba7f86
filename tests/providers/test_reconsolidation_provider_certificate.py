"""The reconsolidation_provider capability: certified from the three-arm evaluation against
the configured provider, bound to its code, provider, model and privacy settings, and resting
on a current formation_provider certificate."""

import json
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command

from evaluation import certificates
from evaluation.certificates import certificate_refusal
from evaluation.models import Certificate
from evaluation.reconsolidation_runner import DEFAULT_FIXTURES, read_fixtures
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


def test_it_is_certified_only_on_a_current_formation_provider_certificate_and_bound_to_privacy(
    provider_settings, fake_provider, tmp_path, settings, monkeypatch
):
    # A verifier that agrees with no topic: the careless fake's topics would fail the
    # connection bar (the next test).
    fake_provider.set("disagree", stage="topic_verdicts")
    out = evaluate(tmp_path)

    with pytest.raises(CommandError, match="rests on formation_provider"):
        certify(out)
    assert not Certificate.objects.filter(capability=CAPABILITY).exists()

    # An upstream certificate whose figures were never measured is no ground to rest on.
    certify_formation_provider(metrics={})
    with pytest.raises(CommandError, match="does not meet formation_provider's current"):
        certify(out)

    certify_formation_provider()
    certify(out)
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
    refusal = certificate_refusal(CAPABILITY)
    assert refusal is not None and "reconsolidation_provider" in refusal
    monkeypatch.undo()
    assert certificate_refusal(CAPABILITY) is None


def test_a_provider_that_merges_paraphrases_but_invents_topics_is_refused(
    provider_settings, fake_provider, tmp_path
):
    certify_formation_provider()
    out = evaluate(tmp_path)

    arms = json.loads((out / "results.json").read_bytes())["arms"]
    # The paraphrases the deterministic planner cannot merge, it merges, and finds the topic
    # the fixture labels; but it also calls three unrelated things one topic for a word.
    assert arms["reconsolidation"]["missed_merges"] > 0
    assert arms["reconsolidation_provider"]["missed_merges"] == 0
    assert (
        arms["reconsolidation_provider"]["connection_recall"]
        > arms["reconsolidation"]["connection_recall"]
    )
    assert arms["reconsolidation_provider"]["connection_precision"] < 0.9
    with pytest.raises(CommandError, match="connection_precision"):
        certify(out)
    assert not Certificate.objects.filter(capability=CAPABILITY).exists()


def test_a_self_written_trivial_fixture_is_refused(provider_settings, fake_provider, tmp_path):
    certify_formation_provider()
    cases, _ = read_fixtures(DEFAULT_FIXTURES)
    (case,) = [case for case in cases if case["id"] == "merge-articles"]
    trivial = {**case, "labels": {**case["labels"], "merge": []}}
    fixture = tmp_path / "trivial.jsonl"
    fixture.write_text(
        "".join(json.dumps({**trivial, "id": f"trivial-{n}"}) + "\n" for n in range(40)),
        encoding="utf-8",
    )
    out = evaluate(tmp_path, fixture)

    with pytest.raises(CommandError, match="not of the shipped labelled fixture"):
        certify(out)
    assert not Certificate.objects.filter(capability=CAPABILITY).exists()


def test_results_of_another_provider_are_refused(provider_settings, fake_provider, tmp_path):
    certify_formation_provider()
    out = evaluate(tmp_path)
    path = out / "results.json"
    results = json.loads(path.read_bytes())
    results["meta"]["provider"] = "http://elsewhere/v1 other-model privacy:0"
    path.write_text(json.dumps(results), encoding="utf-8")

    with pytest.raises(CommandError, match="the results are of provider"):
        certify(out)


def test_without_a_provider_the_arm_cannot_run(tmp_path):
    with pytest.raises(CommandError, match="none is configured"):
        evaluate(tmp_path)
