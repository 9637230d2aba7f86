"""Pages load nothing from another host: a memory service's owner and its API docs are
served from the machine that runs it, fonts and scripts included."""

from urllib.parse import urlsplit

import pytest

from tests.memory.helpers import remember

from .browser import chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


def test_no_page_asks_another_host_for_anything(live_server, owner, screenshots):
    remember(owner, "User prefers metric units.")
    requested = []

    with chromium_page() as page:

        def seen(route):
            requested.append(route.request.url)
            if urlsplit(route.request.url).hostname in LOOPBACK:
                route.continue_()
            else:
                # Refused, not fetched: the test never depends on the network.
                route.abort()

        page.route("**/*", seen)
        log_in(page, live_server.url, owner.username)
        # Home, then every page of the site's navigation, then the API's documentation.
        pages = [
            page.url,
            *page.eval_on_selector_all("#review-nav a", "links => links.map(a => a.href)"),
            f"{live_server.url}/api/v1/docs/",
        ]
        for number, url in enumerate(pages):
            response = page.goto(url)
            assert response.ok, url
            page.wait_for_load_state("networkidle")
            name = urlsplit(url).path.strip("/").replace("/", "-") or "home"
            screenshots(page, f"60-{number:02d}-{name}")
        # ReDoc rendered the schema with what this server gave it.
        page.get_by_text("Reverie memory API").first.wait_for()
        screenshots(page, "api-docs")

    outside = sorted({url for url in requested if urlsplit(url).hostname not in LOOPBACK})
    assert outside == []
    assert len(pages) >= 5
    assert any(url.endswith("/api/v1/docs/") for url in requested)
    assert any("redoc" in url for url in requested), "the docs page loads its script locally"
