"""The spend ledger: a call is reserved before it is sent, under the principal's and the
global daily cap, and settled at what it cost."""

from decimal import Decimal

import pytest

from memory.services.account import account_purge
from providers import ledger
from providers.ledger import SpendRefused, reserve, settle, spent_today
from providers.models import ProviderSpend


@pytest.fixture
def caps(settings):
    settings.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 0.10, "daily_usd_global": 0.15}
    return settings


def test_a_reservation_counts_against_both_caps_until_it_is_settled(owner, caps):
    reservation = reserve(principal=owner, usd=Decimal("0.06"))

    assert spent_today(owner) == Decimal("0.06") and spent_today() == Decimal("0.06")
    settle(reservation, usd=Decimal("0.01"))
    assert spent_today(owner) == Decimal("0.01") and spent_today() == Decimal("0.01")


def test_the_principals_cap_refuses_what_would_pass_it(owner, caps):
    reserve(principal=owner, usd=Decimal("0.06"))

    with pytest.raises(SpendRefused, match="principal"):
        reserve(principal=owner, usd=Decimal("0.05"))
    assert spent_today(owner) == Decimal("0.06")


def test_the_global_cap_holds_across_principals(owner, other_owner, caps):
    reserve(principal=owner, usd=Decimal("0.09"))
    reserve(principal=other_owner, usd=Decimal("0.05"))

    with pytest.raises(SpendRefused, match="global"):
        reserve(principal=other_owner, usd=Decimal("0.02"))
    assert spent_today() == Decimal("0.14")
    assert spent_today(other_owner) == Decimal("0.05")


def test_one_principals_spend_is_not_anothers(owner, other_owner, caps):
    reserve(principal=owner, usd=Decimal("0.09"))

    reserve(principal=other_owner, usd=Decimal("0.05"))

    assert spent_today(other_owner) == Decimal("0.05")


def test_amounts_round_up_to_the_micro_dollar(owner, caps):
    reserve(principal=owner, usd=Decimal("0.0000001"))

    assert spent_today(owner) == Decimal("0.000001")


def test_the_ledger_holds_amounts_and_counts_only(owner, caps):
    reserve(principal=owner, usd=Decimal("0.01"))

    fields = {field.name for field in ProviderSpend._meta.get_fields()}
    assert fields == {"id", "day", "principal", "committed_micros", "calls", "updated_at"}
    assert ProviderSpend.objects.get(principal=owner).calls == 1
    assert ledger.to_micros(Decimal("0.25")) == 250_000


def test_erasing_an_account_takes_its_ledger_rows_and_keeps_the_days_total(owner, caps):
    reserve(principal=owner, usd=Decimal("0.02"))

    account_purge(principal=owner)

    assert not ProviderSpend.objects.filter(principal__isnull=False).exists()
    assert spent_today() == Decimal("0.02")
