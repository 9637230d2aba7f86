"""An owner opts out of model processing in a real browser (Debian's chromium, Playwright),
against a live server, from the account page. Screens are saved as ``7x-`` under
``REVERIE_SCREENSHOTS_DIR`` (default ``var/screenshots``).

The data is made before the browser starts and checked after it is gone (see
``tests/review/browser.py``).
"""

import pytest

from accounts.models import OperatorAction
from accounts.selectors import model_processing_allowed

from .browser import chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OPTED_OUT = "Reverie never sends your conversations or memories to a language model."


def test_an_owner_opts_out_of_model_processing_and_back_in(live_server, owner, screenshots):
    from playwright.sync_api import expect

    base = live_server.url
    with chromium_page() as page:
        log_in(page, base, "owner")
        page.click("#review-nav >> text=Account")
        page.click("#model-processing-link")
        expect(page.locator("h1")).to_have_text("Language models")
        expect(page.locator("#model-processing-state")).to_contain_text(
            "Memories marked sensitive and memories kept local-only are never sent."
        )
        screenshots(page, "70-model-processing-allowed")

        page.click("#model-processing-button")
        expect(page.locator(".messagelist")).to_have_text(f"You opted out. {OPTED_OUT}")
        expect(page.locator("#model-processing-state")).to_contain_text(OPTED_OUT)
        expect(page.locator("#model-processing-history tbody tr")).to_have_count(1)
        screenshots(page, "71-model-processing-opted-out")

        page.click("#model-processing-button")
        expect(page.locator("#model-processing-state")).to_contain_text(
            "Model processing is allowed."
        )
        page.click("#model-processing-button")
        expect(page.locator("#model-processing-state")).to_contain_text(OPTED_OUT)

    assert model_processing_allowed(owner) is False
    assert list(
        OperatorAction.objects.filter(principal=owner).order_by("id").values_list("action")
    ) == [
        ("model_processing_opted_out",),
        ("model_processing_allowed",),
        ("model_processing_opted_out",),
    ]
