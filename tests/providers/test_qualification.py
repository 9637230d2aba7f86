"""Provider qualification on the shipped data: a careful provider is certified; one that is
useless or unsafe, a forged or edited file, or edited data are refused, each with the figure
or the reason that fails."""

import json
import shutil

import pytest
from django.core.management import CommandError, call_command

from common.selectors.flags import flag_cache_clear, flag_enabled
from common.services.flags import flag_set
from evaluation.bindings import privacy_digest
from evaluation.models import Certificate
from evaluation.qualification import data
from evaluation.qualification.data import formation_cases
from formation.hybrid import HybridExtractor
from formation.services import formation_extractor
from providers.config import provider_config

pytestmark = pytest.mark.django_db(transaction=True)


def qualify(kind, out, *arguments):
    call_command("qualify_provider", kind, "--yes", "--out", str(out), *arguments)
    return out / "qualification.json"


def test_a_careful_provider_is_certified_for_formation_and_formation_then_calls_it(
    provider_settings, fake_provider, tmp_path, capsys
):
    fake_provider.set("careful")

    qualify("formation", tmp_path)

    out = capsys.readouterr().out
    assert "recall_lift_single_message" in out and "certified formation_provider" in out
    # Only what a live request carries left the machine: never a label.
    cases = formation_cases(data.FORMATION_DATA.read_bytes())
    sent = b"".join(fake_provider.raw_requests).decode()
    assert fake_provider.raw_requests
    assert '"expected"' not in sent and '"never_stored"' not in sent
    assert not [case["about"] for case in cases if case["about"] in sent]
    certificate = Certificate.objects.get(capability="formation_provider")
    assert certificate.metrics["recall_lift_single_message"] > 0
    assert certificate.metrics["recall_lift_multi_message"] > 0
    assert certificate.metrics["unsafe_stored"] == 0
    assert certificate.provider_terms == {
        "base_url": fake_provider.base_url,
        "model": "fake-1",
        "input_price": "0.15",
        "output_price": "0.6",
        "privacy": privacy_digest(provider_config()),
    }
    flag_set(key="formation_provider", enabled=True)
    assert isinstance(formation_extractor(), HybridExtractor)

    provider_settings.REVERIE_PROVIDER = {**provider_settings.REVERIE_PROVIDER, "model": "big-1"}
    flag_cache_clear()
    assert flag_enabled("formation_provider") is False


@pytest.mark.parametrize(
    ("behaviour", "failing"),
    [
        # Proposes nothing at all.
        ("silent", "recall_lift_single_message = 0.0 is below the minimum"),
        # Quiet whenever a request holds one message: no lift where most traffic is.
        ("quiet_on_single", "recall_lift_single_message = 0.0 is below the minimum"),
        # Invents claims about what the messages name: the local rules refuse them all.
        ("fabrication", "model_refused_share = 1.0 is above the maximum"),
        # Retracts every explicit memory: refused or raised as a question, never applied.
        ("overrule_by_negation", "model_refused_share = 0.9[0-9]* is above the maximum"),
        # Reads every first-person sentence literally, traps included: it stores a wish.
        ("valid", "unsafe_stored = 1 is above the maximum 0"),
    ],
)
def test_a_useless_or_careless_formation_provider_is_refused_by_the_figure_that_fails(
    provider_settings, fake_provider, tmp_path, behaviour, failing
):
    fake_provider.set(behaviour)

    with pytest.raises(CommandError, match=f"not qualified: .*{failing}"):
        qualify("formation", tmp_path)

    assert not Certificate.objects.exists()
    assert (tmp_path / "qualification.json").exists()


def certify(path, capability="formation_provider"):
    call_command("certify", "--results", str(path), "--capability", capability)


def rewritten(path, edit):
    results = json.loads(path.read_text())
    edit(results)
    copy = path.with_name("edited.json")
    copy.write_text(json.dumps(results))
    return copy


def test_the_qualification_file_certifies_again_only_as_this_installation_wrote_it(
    provider_settings, fake_provider, tmp_path
):
    fake_provider.set("careful")
    path = qualify("formation", tmp_path)
    Certificate.objects.all().delete()

    def add_a_found_fact(results):
        results["observed"]["formation_provider"][0]["sessions"][0]["stored"].append(
            {"statement": "User owns a Kindle.", "polarity": "positive", "model": True}
        )

    for forged in (
        rewritten(path, add_a_found_fact),
        rewritten(path, lambda results: results.pop("signature")),
    ):
        with pytest.raises(CommandError, match="was not written by this installation"):
            certify(forged)
    assert not Certificate.objects.exists()

    certify(path)

    assert Certificate.objects.filter(capability="formation_provider").count() == 1


def test_edited_qualification_data_is_refused_before_any_call(
    provider_settings, fake_provider, tmp_path, monkeypatch
):
    edited = tmp_path / "formation_sessions.jsonl"
    shutil.copy(data.FORMATION_DATA, edited)
    lines = edited.read_text().splitlines()
    edited.write_text("\n".join(lines[1:]) + "\n")
    monkeypatch.setitem(data.DATA, "formation", edited)

    with pytest.raises(CommandError, match="is not the one formation_provider is pinned to"):
        qualify("formation", tmp_path)
    assert fake_provider.requests == 0


def test_a_provider_without_prices_is_refused_before_any_call(
    provider_settings, fake_provider, tmp_path
):
    provider_settings.REVERIE_PROVIDER = {
        **provider_settings.REVERIE_PROVIDER,
        "input_price": 0.0,
        "price_free": False,
    }

    with pytest.raises(CommandError, match="REVERIE_PROVIDER_PRICE_FREE"):
        qualify("formation", tmp_path)
    assert fake_provider.requests == 0


def test_egress_rules_that_let_nothing_leave_are_refused_before_any_call(
    provider_settings, fake_provider, tmp_path
):
    provider_settings.REVERIE_EGRESS = {"residency": ["local"], "allow": []}

    with pytest.raises(CommandError, match="the egress rules let nothing leave"):
        qualify("formation", tmp_path)
    assert fake_provider.requests == 0


def test_without_yes_it_estimates_and_stops_before_any_call(
    provider_settings, fake_provider, tmp_path, capsys
):
    with pytest.raises(CommandError, match="stopped before any call"):
        call_command("qualify_provider", "formation", "--out", str(tmp_path))

    assert "at most" in capsys.readouterr().out
    assert fake_provider.requests == 0


def test_reconsolidation_is_refused_before_any_call_without_a_formation_certificate(
    provider_settings, fake_provider, tmp_path
):
    with pytest.raises(CommandError, match="rests on formation_provider"):
        qualify("reconsolidation", tmp_path)
    assert fake_provider.requests == 0


@pytest.fixture
def formation_certified(provider_settings, fake_provider, tmp_path):
    """formation_provider certified as an operator certifies it: by qualifying the provider."""
    fake_provider.set("careful")
    qualify("formation", tmp_path / "formation")
    return Certificate.objects.get(capability="formation_provider")


def test_reconsolidation_certifies_a_careful_provider_and_refuses_a_useless_or_careless_one(
    formation_certified, fake_provider, tmp_path, capsys
):
    for behaviour, failing in (
        ("silent", "found_lift = 0 is below the minimum 1"),
        # Calls every block one claim: what the local rules let through is counted.
        ("yes_to_everything", "false_merges = [1-9][0-9]* is above the maximum 0"),
    ):
        fake_provider.set(behaviour)
        with pytest.raises(CommandError, match=f"not qualified: .*{failing}"):
            qualify("reconsolidation", tmp_path / behaviour)
        assert not Certificate.objects.filter(capability="reconsolidation_provider").exists()

    fake_provider.set("careful")
    qualify("reconsolidation", tmp_path / "careful")

    assert "certified reconsolidation_provider" in capsys.readouterr().out
    certificate = Certificate.objects.get(capability="reconsolidation_provider")
    assert certificate.metrics["found_lift"] > 0
    assert certificate.metrics["false_merges"] == 0


def test_an_unwritable_out_directory_is_refused_before_any_call(
    provider_settings, fake_provider, tmp_path
):
    blocked = tmp_path / "a-file"
    blocked.write_text("")

    with pytest.raises(CommandError, match="cannot write .*qualification.json"):
        qualify("formation", blocked / "out")
    assert fake_provider.requests == 0
