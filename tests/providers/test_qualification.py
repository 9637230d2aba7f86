"""Provider qualification on the shipped data: a careful provider is certified; one that is
useless or unsafe, a forged or edited file, or edited data are refused, each with the figure
or the reason that fails."""

import json
import shutil

import pytest
from django.core.management import CommandError, call_command

from common.selectors.flags import flag_cache_clear, flag_enabled
from common.services.flags import flag_set
from evaluation import certificates
from evaluation.models import Certificate
from evaluation.qualification import runs
from formation.hybrid import HybridExtractor
from formation.services import formation_extractor

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
    certificate = Certificate.objects.get(capability="formation_provider")
    assert certificate.metrics["recall_lift_single_message"] > 0
    assert certificate.metrics["recall_lift_multi_message"] > 0
    assert certificate.metrics["unsafe_stored"] == 0
    flag_set(key="formation_provider", enabled=True)
    assert isinstance(formation_extractor(), HybridExtractor)

    provider_settings.REVERIE_PROVIDER = {**provider_settings.REVERIE_PROVIDER, "model": "big-1"}
    flag_cache_clear()
    assert flag_enabled("formation_provider") is False


@pytest.mark.parametrize(
    ("behaviour", "failing"),
    [
        ("silent", "recall_lift_single_message = 0.0 is below"),
        ("quiet_on_single", "recall_lift_single_message = 0.0 is below"),
        ("fabrication", "model_refused_share = [0-9.]+ is above"),
        ("overrule_by_negation", "model_refused_share = [0-9.]+ is above"),
        ("valid", "precision_margin = -[0-9.]+ is below"),
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


@pytest.fixture
def careful_file(provider_settings, fake_provider, tmp_path):
    fake_provider.set("careful")
    path = qualify("formation", tmp_path)
    Certificate.objects.all().delete()
    return path


def certify(path, capability="formation_provider"):
    call_command("certify", "--results", str(path), "--capability", capability)


def test_a_qualification_file_certifies_again_as_written(careful_file):
    certify(careful_file)

    assert Certificate.objects.filter(capability="formation_provider").count() == 1


def test_an_edited_qualification_file_is_refused(careful_file):
    results = json.loads(careful_file.read_text())
    results["observed"]["formation_provider"][0]["sessions"][0]["stored"].append(
        {
            "statement": "User owns a Kindle.",
            "polarity": "positive",
            "sensitivity": "normal",
            "model": True,
        }
    )
    careful_file.write_text(json.dumps(results))

    with pytest.raises(CommandError, match="was not written by this installation"):
        certify(careful_file)
    assert not Certificate.objects.exists()


def test_a_forged_qualification_file_is_refused(careful_file, settings):
    results = json.loads(careful_file.read_text())
    results.pop("signature")
    careful_file.write_text(json.dumps(results))

    with pytest.raises(CommandError, match="was not written by this installation"):
        certify(careful_file)


def test_edited_qualification_data_is_refused_before_any_call(
    provider_settings, fake_provider, tmp_path, monkeypatch
):
    edited = tmp_path / "formation_sessions.jsonl"
    shutil.copy(runs.KINDS["formation"][1], edited)
    lines = edited.read_text().splitlines()
    edited.write_text("\n".join(lines[1:]) + "\n")
    monkeypatch.setitem(runs.KINDS, "formation", ("formation_provider", edited))
    monkeypatch.setitem(certificates.QUALIFICATION_DATA, "formation", edited)

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
