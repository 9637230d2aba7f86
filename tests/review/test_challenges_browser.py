"""An owner decides, in a real browser (Debian's chromium, Playwright), against a live
server, that a memory formation read may have changed stays as they stated it. Screens are
saved as ``8x-`` under ``REVERIE_SCREENSHOTS_DIR`` (default ``var/screenshots``).

The data is made before the browser starts and checked after it is gone (see
``tests/review/browser.py``).
"""

import pytest

from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.models import Challenge
from formation.services import formation_consolidate
from memory.enums import BeliefType
from memory.models import Belief
from tests.memory.helpers import conversation, remember

from .browser import chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_owner_keeps_a_memory_that_may_have_changed(live_server, owner, screenshots):
    from playwright.sync_api import expect

    stated = remember(
        owner, "User owns a BMW X3.", subject="vehicle:bmw-x3", type=BeliefType.OWNERSHIP
    )
    session, _ = conversation(owner, "I sold the BMW X3 to my neighbour.")
    formation_consolidate(
        principal=owner, session_id=session.public_id, extractor=DeterministicExtractor()
    )

    with chromium_page() as page:
        log_in(page, live_server.url, "owner")
        page.click("#review-nav >> text=May have changed")
        page.click("text=User no longer owns a BMW X3.")
        expect(page.locator("#standing")).to_contain_text("User owns a BMW X3.")
        expect(page.locator("#proposal")).to_contain_text("I sold the BMW X3 to my neighbour.")
        screenshots(page, "80-memory-may-have-changed")

        page.click("#keep")
        expect(page.locator(".messagelist")).to_contain_text("Kept: your memory stays")
        expect(page.locator("#decision")).to_contain_text("You kept your memory")
        screenshots(page, "81-memory-kept")

    with principal_context(owner):
        assert Challenge.objects.get(owner=owner).state == "kept"
        assert Belief.objects.get(pk=stated.pk).status == "active"
