"""Certificates: recomputed from observations, bound to code and data, gating capability flags."""

import json

import pytest
from django.core.management import CommandError, call_command

from common.flags import CATALOGUE, FlagSpec
from common.selectors.flags import flag_cache_clear, flag_enabled
from common.services.flags import flag_set
from core.errors import ReverieError
from evaluation import certificates, provenance
from evaluation.code_closure import module_file
from evaluation.models import Certificate

pytestmark = pytest.mark.django_db

CAPABILITY = {
    "arm": "formation",
    "policy": "formation",
    "thresholds": {"fabrication": {"max": 0.0}, "formation_coverage": {"min": 0.2}},
}


@pytest.fixture(autouse=True)
def demo_capability(settings, monkeypatch):
    """A default-off capability with its flag, as the later capabilities will declare them."""
    settings.REVERIE_CAPABILITIES = {"demo_capability": CAPABILITY}
    settings.REVERIE_FLAG_DEFAULTS = {**settings.REVERIE_FLAG_DEFAULTS, "demo_processing": False}
    monkeypatch.setitem(
        CATALOGUE,
        "demo_processing",
        FlagSpec("demo_processing", "processing", "A capability under test.", "demo_capability"),
    )
    flag_cache_clear()
    yield
    flag_cache_clear()


def results_file(evaluated, tmp_path, edit=None):
    _, results = evaluated
    results = json.loads(json.dumps(results))
    if edit:
        edit(results)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    return path


def certify(path, capability="demo_capability"):
    call_command("certify", "--results", str(path), "--capability", capability)


def test_a_capability_meeting_its_thresholds_is_certified_and_bound(evaluated, tmp_path, capsys):
    _, results = evaluated

    certify(results_file(evaluated, tmp_path))

    certificate = Certificate.objects.get()
    assert (certificate.capability, certificate.arm, certificate.policy_version) == (
        "demo_capability",
        "formation",
        "formation@2",
    )
    assert certificate.code_digest == results["meta"]["code_digests"]["formation"]
    assert certificate.dataset_digest == results["meta"]["dataset_digest"]
    assert certificate.metrics == {
        "fabrication": 0.0,
        "formation_coverage": results["arms"]["formation"]["formation_coverage"],
    }
    assert "certified demo_capability" in capsys.readouterr().out


def test_thresholds_not_met_are_refused_and_nothing_is_stored(evaluated, tmp_path, settings):
    settings.REVERIE_CAPABILITIES = {
        "demo_capability": {
            **CAPABILITY,
            "thresholds": {"formation_coverage": {"max": 0.5}, "beliefs": {"min": 1000}},
        }
    }

    with pytest.raises(
        CommandError,
        match=r"beliefs = \d+ is below the minimum 1000; formation_coverage = 1.0 is above the "
        r"maximum 0.5",
    ):
        certify(results_file(evaluated, tmp_path))

    assert not Certificate.objects.exists()


def test_an_edited_figure_does_not_pass(evaluated, tmp_path):
    def inflate(results):  # a better figure than the observations give
        results["arms"]["formation"]["evidence_recall@10"] += 0.25

    with pytest.raises(CommandError, match="do not follow from the recorded observations"):
        certify(results_file(evaluated, tmp_path, inflate))

    assert not Certificate.objects.exists()


def test_results_of_other_code_do_not_pass(evaluated, tmp_path):
    def other_code(results):
        results["meta"]["code_digests"]["formation"] = "0" * 64

    with pytest.raises(CommandError, match="produced by other formation code"):
        certify(results_file(evaluated, tmp_path, other_code))


def test_results_without_the_capabilitys_arm_say_how_to_produce_them(evaluated, tmp_path):
    def drop_arm(results):
        del results["arms"]["formation"]

    with pytest.raises(CommandError, match=r"no 'formation' arm; run `manage.py evaluate"):
        certify(results_file(evaluated, tmp_path, drop_arm))


def test_unknown_capabilities_and_unreadable_results_are_refused(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{}")

    with pytest.raises(CommandError, match="unknown capability 'teleport'"):
        certify(junk, "teleport")
    with pytest.raises(CommandError, match="not a results.json"):
        certify(junk)
    with pytest.raises(CommandError, match="cannot read"):
        certify(tmp_path / "missing.json")


def test_the_flag_of_a_capability_cannot_be_switched_on_without_a_certificate():
    with pytest.raises(ReverieError) as refusal:
        flag_set(key="demo_processing", enabled=True)

    assert refusal.value.code == "conflict"
    assert "needs an evaluation certificate" in refusal.value.message
    assert "manage.py certify --results DIR/results.json --capability demo_capability" in (
        refusal.value.message
    )
    assert flag_enabled("demo_processing") is False
    # Switching it off never needs one.
    flag_set(key="demo_processing", enabled=False)


def test_a_certified_capability_can_be_switched_on_until_its_code_changes(
    evaluated, tmp_path, monkeypatch
):
    certify(results_file(evaluated, tmp_path))

    flag_set(key="demo_processing", enabled=True)
    assert flag_enabled("demo_processing") is True

    # The policy code changes: the certificate no longer matches and the flag reads off.
    monkeypatch.setattr(certificates, "code_digest", lambda parts=(): "f" * 64)
    assert flag_enabled("demo_processing") is False
    with pytest.raises(ReverieError):
        flag_set(key="demo_processing", enabled=True)


def test_flags_without_a_capability_need_no_certificate():
    flag_set(key="formation", enabled=False)
    flag_set(key="formation", enabled=True)

    assert flag_enabled("formation") is True


def test_every_entry_of_a_policy_digest_is_a_module_of_the_project():
    # A renamed module would otherwise drop out of the digest unnoticed, and a
    # certificate would outlive a change to the code it certified.
    for part, entries in provenance.POLICY_ENTRIES.items():
        for entry in entries:
            assert module_file(entry) is not None, (part, entry)
