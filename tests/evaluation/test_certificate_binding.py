"""What a provider-assisted certificate binds (the provider's base URL, model, prices and
egress rules, and the code), and how a refusal tells the operator which of them changed."""

from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from common.services.flags import flag_set
from core.errors import ReverieError
from evaluation import certificates
from evaluation.certificates import certificate_refusal, matching_certificate
from providers.config import price_refusal, provider_config
from tests.certificates import certificate_create

pytestmark = pytest.mark.django_db

PROVIDER_CAPABILITIES = ["formation_provider", "reconsolidation_provider"]


def configure(settings, **provider):
    settings.REVERIE_PROVIDER = {**settings.REVERIE_PROVIDER, **provider}


@pytest.fixture
def certified(provider_settings):
    """Both provider capabilities certified for what is configured now."""
    return {name: certificate_create(name) for name in PROVIDER_CAPABILITIES}


@pytest.mark.parametrize("name", PROVIDER_CAPABILITIES)
def test_a_certificate_stores_every_provider_term_and_the_string_holds_them_all(
    name, certified, fake_provider
):
    certificate = certified[name]
    spec = certificates.capability(name)

    terms = certificates.current_terms(spec)
    assert set(terms) == {"base_url", "model", "input_price", "output_price", "privacy"}
    assert (terms["base_url"], terms["model"]) == (fake_provider.base_url, "fake-1")
    assert (terms["input_price"], terms["output_price"]) == ("0.15", "0.6")
    assert certificates.current_provider(spec) == (
        f"{fake_provider.base_url} fake-1 price:0.15/0.6 privacy:{terms['privacy']}"
    )
    assert matching_certificate(name) == certificate


@pytest.mark.parametrize("name", PROVIDER_CAPABILITIES)
@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"base_url": "http://127.0.0.1:9/v1"}, "the provider's base URL changed"),
        ({"model": "big-1"}, "the model changed"),
        ({"input_price": 0.3}, "the provider's prices changed"),
        ({"output_price": 1.2}, "the provider's prices changed"),
        ({"residency": "eu"}, "the egress rules changed"),
    ],
)
def test_each_provider_term_binds_and_the_refusal_names_the_change(
    name, change, reason, certified, settings
):
    configure(settings, **change)
    if name == "reconsolidation_provider":
        # What it rests on no longer matches either, and that is said first.
        assert certificate_refusal(name).startswith(f"{name} rests on formation_provider")
        certificate_create("formation_provider")

    assert matching_certificate(name) is None
    issued = certified[name].issued_at
    assert certificate_refusal(name) == (
        f"{name} has no certificate for what runs now: since certificate {certified[name].pk} "
        f"was issued ({issued:%Y-%m-%d}), {reason}; {certificates.capability(name).how}."
    )


def test_the_egress_rules_alone_bind(certified, settings):
    settings.REVERIE_EGRESS = {**settings.REVERIE_EGRESS, "residency": ["local", "us"]}

    refusal = certificate_refusal("formation_provider")

    assert refusal.endswith(
        "was issued "
        f"({certified['formation_provider'].issued_at:%Y-%m-%d}), the egress rules changed; "
        f"{certificates.capability('formation_provider').how}."
    )


def test_several_changes_are_all_named(certified, settings, monkeypatch):
    configure(settings, model="big-1", input_price=0.5)
    monkeypatch.setattr(certificates, "code_digest", lambda parts=(): "f" * 64)

    refusal = certificate_refusal("formation_provider")

    assert "the model changed, the provider's prices changed and the code changed;" in refusal
    assert "base URL" not in refusal and "egress" not in refusal


def test_a_code_change_alone_is_named(certified, monkeypatch):
    monkeypatch.setattr(certificates, "code_digest", lambda parts=(): "f" * 64)

    refusal = certificate_refusal("formation_provider")

    assert "), the code changed; " in refusal


def test_a_policy_version_change_is_a_code_change(certified, monkeypatch):
    versions = certificates.policy_versions()
    monkeypatch.setattr(
        certificates,
        "policy_versions",
        lambda: {**versions, "formation_provider": "formation@99"},
    )

    assert "), the code changed; " in certificate_refusal("formation_provider")


def test_the_structured_terms_must_agree_with_the_string(provider_settings):
    terms = certificates.current_terms(certificates.capability("formation_provider"))
    certificate_create("formation_provider", provider_terms={**terms, "output_price": "0.59"})

    assert matching_certificate("formation_provider") is None
    assert "the provider's prices changed" in certificate_refusal("formation_provider")


def test_a_certificate_from_before_terms_were_bound_is_named_as_such(provider_settings):
    certificate_create("formation_provider", provider_terms={}, provider_binding="x fake-1")

    assert "certificates bind the provider's prices and egress rules too" in (
        certificate_refusal("formation_provider")
    )


def test_without_an_earlier_certificate_the_refusal_says_how_to_get_one(provider_settings):
    assert "needs an evaluation certificate for its current code" in (
        certificate_refusal("formation_provider")
    )


@pytest.mark.parametrize("price", ["input_price", "output_price"])
def test_a_zero_price_keeps_provider_capabilities_off_unless_stated_free(
    price, certified, settings
):
    configure(settings, **{price: 0.0})
    certificate_create("formation_provider")
    certificate_create("reconsolidation_provider")

    for name in PROVIDER_CAPABILITIES:
        refusal = certificate_refusal(name)
        assert refusal.startswith(f"{name} cannot be switched on: the provider's price is 0")
        assert "REVERIE_PROVIDER_INPUT_PRICE" in refusal
        assert "REVERIE_PROVIDER_OUTPUT_PRICE" in refusal
        assert "REVERIE_PROVIDER_PRICE_FREE=1" in refusal
    with pytest.raises(ReverieError, match="the provider's price is 0"):
        flag_set(key="formation_provider", enabled=True)

    configure(settings, price_free=True)
    assert certificate_refusal("formation_provider") is None
    flag_set(key="formation_provider", enabled=True)


def test_price_refusal_is_empty_for_priced_or_free_providers(provider_settings, settings):
    assert price_refusal(provider_config()) == ""
    assert price_refusal(None) == ""
    configure(settings, input_price=0.0)
    assert "REVERIE_PROVIDER_PRICE_FREE" in price_refusal(provider_config())
    configure(settings, price_free=True)
    assert price_refusal(provider_config()) == ""
    assert provider_config().input_price == Decimal("0")


def test_the_operator_flag_page_shows_what_changed(certified, settings, client, operator):
    configure(settings, model="big-1")
    client.force_login(operator)

    page = client.get(reverse("admin:common_flag_changelist")).content.decode()

    row = page.split('id="flag-formation_provider"')[1].split("</tr>")[0]
    assert "Certificate: formation_provider has no certificate for what runs now" in row
    assert "the model changed" in row


def test_status_lists_each_capability_as_on_able_or_with_its_refusal(certified, settings, capsys):
    configure(settings, model="big-1")
    certificate = certificate_create("formation_provider")

    call_command("certify", "--status")

    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert set(lines) == set(settings.REVERIE_CAPABILITIES)
    assert lines["formation_provider"].startswith(
        f"on-able: certificate {certificate.pk} issued {certificate.issued_at:%Y-%m-%d}"
    )
    assert "recall_lift_single_message = 0.02" in lines["formation_provider"]
    assert "the model changed" in lines["reconsolidation_provider"]
    assert lines["reconsolidation"].startswith("reconsolidation needs an evaluation certificate")


def test_certifying_without_status_needs_results_and_capability():
    with pytest.raises(CommandError, match="--results and --capability are required"):
        call_command("certify")
    with pytest.raises(CommandError, match="--capability is required"):
        call_command("certify", "--results", "results.json")


def test_an_upstream_certificate_must_meet_the_upstreams_current_thresholds(
    provider_settings, settings
):
    upstream = certificate_create("formation_provider", metrics={})
    certificate_create("reconsolidation_provider")
    assert certificate_refusal("reconsolidation_provider").startswith(
        "reconsolidation_provider rests on formation_provider, whose certificate "
        f"{upstream.pk} does not meet formation_provider's current thresholds "
        "(cases is missing; "
    )

    upstream = certificate_create("formation_provider")
    assert certificate_refusal("reconsolidation_provider") is None

    # The upstream's bar is raised above what its certificate shows.
    capabilities = dict(settings.REVERIE_CAPABILITIES)
    thresholds = {**capabilities["formation_provider"]["thresholds"], "cases": {"min": 5000}}
    capabilities["formation_provider"] = {
        **capabilities["formation_provider"],
        "thresholds": thresholds,
    }
    settings.REVERIE_CAPABILITIES = capabilities
    assert "(cases = 36 is below the minimum 5000)" in (
        certificate_refusal("reconsolidation_provider")
    )
