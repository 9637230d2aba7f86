"""Driving Debian's chromium through Playwright against the live server.

Playwright's sync API keeps an asyncio event loop running in the test's
thread for as long as it is started, and Django refuses ORM calls from a
thread with a running loop (``SynchronousOnlyOperation``). So each test
builds its data first, drives the browser inside ``chromium_page()``, and
reads the database again only after the browser is gone.
"""

from contextlib import contextmanager

from tests.conftest import CHROMIUM

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
]
PASSWORD = "correct horse battery staple"


@contextmanager
def chromium_page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # As behind the TLS-terminating proxy of a production deployment.
            context = browser.new_context(
                viewport={"width": 1280, "height": 800},
                accept_downloads=True,
                extra_http_headers={"X-Forwarded-Proto": "https"},
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            yield page
        finally:
            browser.close()


def log_in(page, base_url, username):
    from playwright.sync_api import expect

    page.goto(f"{base_url}/review/")
    expect(page).to_have_url(f"{base_url}/review/login/?next=/review/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("h1")).to_have_text("Your memories")
