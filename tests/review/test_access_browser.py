"""The owner sees which assistant read what and pauses one, in a real browser (Debian's
chromium, Playwright) against a live server. Screens are saved as ``8x-`` under
``REVERIE_SCREENSHOTS_DIR`` (default ``var/screenshots``).

The data is made before the browser starts and checked after it is gone (see
``tests/review/browser.py``).
"""

import pytest
from rest_framework.test import APIClient

from accounts.models import OperatorAction
from accounts.services import api_token_create
from tests.conftest import PROXIED_HTTPS
from tests.memory.helpers import remember

from .browser import chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAUSED = "This token is paused by its owner; it works again when they resume it."


def bearer(secret):
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_an_owner_sees_an_assistants_reads_and_pauses_it_from_the_access_page(
    live_server, owner, screenshots
):
    from playwright.sync_api import expect

    desktop, desktop_secret = api_token_create(principal=owner, name="desktop assistant")
    phone, phone_secret = api_token_create(principal=owner, name="phone app", read_only=True)
    kayak = remember(owner, "User owns a red kayak.")
    remember(owner, "User prefers metric units.")
    # The assistants read through the API, as they would: the reads are recorded.
    assert bearer(desktop_secret).get(f"/api/v1/memories/{kayak.public_id}").status_code == 200
    recalled = bearer(phone_secret).post("/api/v1/recall", {"query": "kayak"}, format="json")
    assert recalled.status_code == 200

    base = live_server.url
    with chromium_page() as page:
        log_in(page, base, "owner")
        page.click("#review-nav >> text=Access")
        expect(page.locator("h1")).to_have_text("Access")
        expect(page.locator("tr.access-token")).to_have_count(2)
        phone_row = page.locator(f"#access-token-{phone.public_id}")
        expect(phone_row.locator(".access-reads")).to_have_text("1")
        expect(phone_row.locator(".token-state")).to_have_text("active")
        expect(page.locator(f"#reads-{phone.public_id} .access-read")).to_contain_text("recalled")
        screenshots(page, "80-access-page")

        phone_row.locator(".token-pause").click()
        expect(page.locator("h1")).to_have_text("Access")
        expect(page.locator(".messagelist")).to_contain_text("The token is paused")
        expect(phone_row.locator(".token-state")).to_contain_text("paused")
        expect(phone_row.locator(".token-resume")).to_be_visible()
        expect(page.locator("#access-pauses tbody tr")).to_have_count(1)
        screenshots(page, "81-access-token-paused")

        # The phone's recent read links to the memory it returned; that page names who read it.
        page.locator(f"#reads-{phone.public_id} a.access-memory").first.click()
        expect(page.locator(".review-statement")).to_have_text("User owns a red kayak.")
        expect(page.locator("#memory-readers tr.memory-reader")).to_have_count(2)
        screenshots(page, "82-memory-readers")

        page.click("#review-nav >> text=Access")
        page.locator(f"#access-token-{phone.public_id} .token-resume").click()
        expect(page.locator(f"#access-token-{phone.public_id} .token-state")).to_have_text("active")
        screenshots(page, "83-access-token-resumed")

    assert list(
        OperatorAction.objects.filter(principal=owner, target=phone.public_id)
        .order_by("id")
        .values_list("action", "via")
    ) == [("token_paused", "review"), ("token_resumed", "review")]
    phone.refresh_from_db()
    assert phone.paused_at is None
    assert desktop.paused_at is None
