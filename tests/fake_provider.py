"""Fixtures of a fake provider on loopback, and settings that point Reverie at it; a plugin
of the root conftest, for every package of tests that talks to a provider."""

from decimal import Decimal

import pytest

from providers.config import ProviderConfig
from providers.fake import FakeProvider

# A deadline no loaded machine misses by accident; a test of the deadline itself sets
# SHORT_DEADLINE and a fake that stalls (``slow``, ``drip``) well past it.
DEADLINE = 30.0
SHORT_DEADLINE = 1.0
STALL = 6.0

# The egress policy of these tests: ordinary and personal items of the owner's
# principal scope may go to a provider labelled "local"; sensitive ones may not.
ALLOW = [
    {"sensitivity": ["normal", "personal"], "portability": ["portable"], "scope": ["principal"]}
]


@pytest.fixture
def fake_provider():
    with FakeProvider(delay=STALL) as fake:
        yield fake


@pytest.fixture
def provider_settings(settings, fake_provider):
    settings.REVERIE_PROVIDER = {
        **settings.REVERIE_PROVIDER,
        "base_url": fake_provider.base_url,
        "model": "fake-1",
        "api_key": "test-key",
        "input_price": 0.15,
        "output_price": 0.60,
        "residency": "local",
        "timeout_seconds": DEADLINE,
    }
    settings.REVERIE_EGRESS = {"residency": ["local"], "allow": ALLOW}
    settings.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 1.0, "daily_usd_global": 20.0}
    return settings


@pytest.fixture
def short_deadline(provider_settings):
    """A provider deadline the stalling fake outlasts by seconds."""
    provider_settings.REVERIE_PROVIDER = {
        **provider_settings.REVERIE_PROVIDER,
        "timeout_seconds": SHORT_DEADLINE,
    }
    return SHORT_DEADLINE


@pytest.fixture
def config(fake_provider):
    return ProviderConfig(
        base_url=fake_provider.base_url,
        model="fake-1",
        api_key="test-key",
        input_price=Decimal("0.15"),
        output_price=Decimal("0.60"),
        residency="local",
    )
