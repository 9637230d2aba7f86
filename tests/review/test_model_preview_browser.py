"""An owner looks at what model-assisted reconsolidation would send, in a real browser (Debian's
chromium, Playwright), against a live server and the loopback fake provider, reached from the
Synthesis page. The screen is saved as ``84-`` under ``REVERIE_SCREENSHOTS_DIR`` (default
``var/screenshots``).

The data is made before the browser starts and checked after it is gone (see
``tests/review/browser.py``).
"""

import pytest

from common.services.flags import flag_set
from reconsolidation.models import ProviderCall
from tests.memory.helpers import conversation, remember

from .browser import chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _remember(owner, statement, message, subject):
    _, (event,) = conversation(owner, message)
    return remember(owner, statement, subject=subject, sources=[event])


def test_an_owner_sees_what_would_be_sent_to_a_language_model(
    live_server, owner, provider_settings, fake_provider, screenshots
):
    from playwright.sync_api import expect

    flag_set(key="reconsolidation_surface", enabled=True)
    _remember(owner, "User has a dog called Pepper.", "I have a dog called Pepper.", "pet:pepper")
    _remember(owner, "User's dog is named Pepper.", "My dog is named Pepper.", "pet:pepper")
    _remember(
        owner, "User plays tennis every Sunday.", "I play tennis every Sunday.", "activity:tennis"
    )
    _remember(
        owner, "User plays tennis each Sunday.", "Each Sunday I play tennis.", "activity:tennis"
    )
    _remember(owner, "Noor visited Tariq.", "Noor visited Tariq last week.", "person:noor")
    _remember(owner, "Tariq visited Noor.", "Then Tariq visited Noor.", "person:noor")
    base = live_server.url

    with chromium_page() as page:
        log_in(page, base, "owner")
        page.click("#review-nav >> text=Synthesis")
        page.click("#model-preview-link")
        expect(page.locator("h1")).to_have_text("What would be sent to a language model")
        expect(page.locator("#preview-capability")).to_contain_text("switched off")
        expect(page.locator("#request-merge .review-item")).to_have_count(4)
        expect(page.locator("#request-merge .review-sent").first).to_have_text(
            "User has a dog called Pepper."
        )
        expect(page.locator("#request-merge-excluded")).to_contain_text("in a different order")
        screenshots(page, "84-model-preview")
        page.click("#request-merge-payload summary")
        expect(page.locator("#request-merge-payload pre")).to_contain_text(
            "Each Sunday I play tennis."
        )

    assert fake_provider.requests == 0
    assert not ProviderCall.objects.exists()
