import os
from pathlib import Path

import pytest
from django.conf import settings

from memory.providers.fake import FakeProvider
from tests.memory.helpers import conversation, remember

# The egress policy of the provider tests: ordinary and personal items of the owner's
# principal scope may go to a provider labelled "local"; sensitive ones may not.
ALLOW = [
    {"sensitivity": ["normal", "personal"], "portability": ["portable"], "scope": ["principal"]}
]

# Text that only the other owner has; no page of the owner may ever show it.
THEIR_SECRET = "The safe code is 4711-OTHER."


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def theirs(other_owner):
    """Another owner's conversation and memory, both holding ``THEIR_SECRET``."""
    session, (message,) = conversation(other_owner, f"Remember this: {THEIR_SECRET}")
    belief = remember(other_owner, THEIR_SECRET, sources=[message])
    return {"session": session, "message": message, "belief": belief}


@pytest.fixture
def screenshots():
    """``shoot(page, name)``: a full-page PNG of the screen in ``REVERIE_SCREENSHOTS_DIR``
    (default ``var/screenshots``)."""
    folder = Path(
        os.environ.get("REVERIE_SCREENSHOTS_DIR") or settings.BASE_DIR / "var/screenshots"
    )
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(page, name):
        page.screenshot(path=folder / f"{name}.png", full_page=True)

    return shoot


@pytest.fixture
def fake_provider():
    with FakeProvider() as fake:
        yield fake


@pytest.fixture
def provider_settings(settings, fake_provider):
    """Reverie pointed at the fake provider, as the provider tests configure it."""
    settings.REVERIE_PROVIDER = {
        **settings.REVERIE_PROVIDER,
        "base_url": fake_provider.base_url,
        "model": "fake-1",
        "api_key": "test-key",
        "input_price": 0.15,
        "output_price": 0.60,
        "residency": "local",
        "timeout_seconds": 0.5,
    }
    settings.REVERIE_EGRESS = {"residency": ["local"], "allow": ALLOW}
    settings.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 1.0, "daily_usd_global": 20.0}
    return settings
