"""The Synthesis and Operations sections in a real browser (Debian's chromium, Playwright),
against a live server, reached through the site's own navigation. Each screen is saved
under ``REVERIE_SCREENSHOTS_DIR`` (default ``var/screenshots``), named ``3x-``/``4x-``.

The data is made before the browser starts and checked after it is gone (see
``tests/review/browser.py``).
"""

import pytest

from common.principal import principal_context
from common.services.flags import flag_set
from reconsolidation.models import DerivedMemory, Operation
from tests.reconsolidation.banks import reconsolidated

from .browser import PASSWORD, chromium_page, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_owner_reads_what_reconsolidation_did_and_undoes_it(
    live_server, owner, processing_on, screenshots
):
    from playwright.sync_api import expect

    bank = reconsolidated(owner)
    base = live_server.url

    with chromium_page() as page:
        log_in(page, base, "owner")
        expect(page.locator("#card-synthesis .count")).to_have_text("4")
        screenshots(page, "30-index-with-synthesis")

        page.click("#review-nav >> text=Review queue")
        expect(page.locator("#derived-waiting-list tbody tr")).to_have_count(4)
        screenshots(page, "31-queue-with-derived")

        page.click("#review-nav >> text=Synthesis")
        expect(page.locator("h1")).to_have_text("Synthesis: what reconsolidation derived")
        expect(page.locator("#result_list tbody tr")).to_have_count(4)
        screenshots(page, "32-synthesis")

        page.click("#result_list >> text=About Maya")
        expect(page.locator("#derived-statement")).to_contain_text(
            "About Maya: Maya is my daughter"
        )
        expect(page.locator("#journal-claims > li")).to_have_count(3)
        screenshots(page, "33-summary-evidence-journal")
        page.click("#journal-claims a:has-text('Maya loves drawing dragons.')")
        expect(page.locator(".review-statement")).to_have_text("Maya loves drawing dragons.")
        expect(page.locator("#derived-about-list")).to_contain_text("About Maya")
        screenshots(page, "34-memory-with-derived-views")

        page.click("#review-nav >> text=Synthesis")
        page.click("#result_list >> text=Your memories about units")
        expect(page.locator("#journal-originals li")).to_have_count(2)
        screenshots(page, "35-contradiction-notice")

        page.click("#review-nav >> text=Synthesis")
        page.click("#result_list >> text=Apple Watch and running may be connected")
        expect(page.locator("#derived-facts")).to_contain_text("tentative")
        screenshots(page, "36-hypothesis")
        page.click("#promote-link")
        expect(page.locator("#consequences")).to_contain_text("nothing happens to them")
        page.fill("#id_statement", "I wear my Apple Watch on every run.")
        screenshots(page, "37-promote-confirmation")
        page.click("#confirm-control")
        expect(page.locator(".messagelist")).to_have_text(
            "The hypothesis is now a memory of yours."
        )
        expect(page.locator(".review-statement")).to_have_text(
            "I wear my Apple Watch on every run."
        )
        screenshots(page, "38-promoted-memory")

        page.click("#review-nav >> text=Synthesis")
        page.click("#result_list >> text=User owns a Kindle.")
        page.click("#reject-link")
        expect(page.locator("#consequences")).to_contain_text("Its generated text is erased")
        screenshots(page, "39-reject-confirmation")
        page.click("#confirm-control")
        expect(page.locator(".messagelist")).to_have_text(
            "The merge is rejected: its generated text is erased."
        )
        expect(page.locator("#derived-statement")).to_have_text("Its generated text was erased.")
        screenshots(page, "40-rejected")

        page.click("#review-nav >> text=Operations")
        expect(page.locator("h1")).to_have_text("Operations: what reconsolidation did")
        expect(page.locator("#result_list tbody tr")).to_have_count(4)
        screenshots(page, "41-operations")
        page.click("#result_list >> text=Summary")
        expect(page.locator("#operation-inputs li")).to_have_count(3)
        screenshots(page, "42-operation")
        page.click("#undo-link")
        expect(page.locator("#undo-restores li")).to_have_count(3)
        expect(page.locator("#undo-sets-aside")).to_contain_text("Summary")
        screenshots(page, "43-undo-preview")
        page.click("#confirm-undo")
        expect(page.locator(".messagelist")).to_have_text("Undone.")
        expect(page.locator("#receipt-facts")).to_contain_text("applied")
        expect(page.locator("#receipt-restored li")).to_have_count(3)
        screenshots(page, "44-undo-receipt")

    with principal_context(owner):
        summary = DerivedMemory.objects.get(pk=bank["summary"].pk)
        assert (summary.status, summary.statement) == ("undone", "")
        assert Operation.objects.get(pk=bank.operations["summary"].pk).state == "undone"
        assert DerivedMemory.objects.get(pk=bank["hypothesis"].pk).status == "promoted"
        assert DerivedMemory.objects.get(pk=bank["merged"].pk).status == "rejected"


def test_with_the_surface_off_the_sections_are_not_there(live_server, owner, screenshots):
    bank = reconsolidated(owner)
    base = live_server.url

    with chromium_page() as page:
        log_in(page, base, "owner")
        nav = page.locator("#review-nav")
        assert "Synthesis" not in nav.inner_text() and "Operations" not in nav.inner_text()
        response = page.goto(f"{base}/review/synthesis/")
        assert response.status == 404
        assert (
            page.locator("#section-unavailable")
            .inner_text()
            .startswith("Synthesis is switched off on this Reverie")
        )
        screenshots(page, "45-synthesis-switched-off")
        response = page.goto(
            f"{base}/review/reconsolidation/derivedmemory/{bank['merged'].public_id}/change/"
        )
        assert response.status == 404
        assert "Synthesis is switched off" in page.locator("#section-unavailable").inner_text()
        page.click("#review-nav >> text=Review queue")
        assert page.locator("#derived-waiting-list").count() == 0
        assert page.locator("#derived-held-back").count() == 0
        page.goto(f"{base}/review/")
        assert page.locator("#card-synthesis").count() == 0


@pytest.mark.parametrize("off", ["capability", "kill_switch"])
def test_while_assistants_receive_no_derived_view_the_owner_is_told_everywhere(
    live_server, owner, processing_on, screenshots, off
):
    from playwright.sync_api import expect

    bank = reconsolidated(owner)
    if off == "capability":
        flag_set(key="reconsolidation", enabled=False)
    else:
        flag_set(key="maintenance_kill_switch", enabled=True)
    base = live_server.url
    told = "Your assistants do not receive derived views now"

    with chromium_page() as page:
        log_in(page, base, "owner")
        expect(page.locator("#card-synthesis")).to_contain_text(
            "kept, not given to your assistants now"
        )
        expect(page.locator("#card-queue .count")).to_have_text("0")
        screenshots(page, f"48-home-derived-not-in-recall-{off}")
        page.click("#review-nav >> text=Review queue")
        expect(page.locator("#derived-held-back")).to_contain_text(
            "4 derived views have not been reviewed"
        )
        expect(page.locator("#derived-waiting-list")).to_have_count(0)
        screenshots(page, f"49-queue-derived-not-in-recall-{off}")
        page.click("#review-nav >> text=Synthesis")
        expect(page.locator("#not-in-recall")).to_contain_text(told)
        page.goto(f"{base}/review/reconsolidation/derivedmemory/{bank['merged'].public_id}/change/")
        expect(page.locator("#not-in-recall")).to_contain_text(told)
        screenshots(page, f"50-derived-not-in-recall-{off}")


def test_the_operator_sees_why_reconsolidation_is_effectively_off(
    live_server, operator, screenshots
):
    from playwright.sync_api import expect

    flag_set(key="reconsolidation_surface", enabled=True)
    base = live_server.url

    with chromium_page() as page:
        page.goto(f"{base}/admin/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        expect(page.locator("#site-name")).to_have_text("Reverie operator admin")
        page.click("text=Flags")
        row = page.locator("#flag-reconsolidation")
        expect(row.locator(".effective")).to_contain_text("off")
        expect(row.locator(".certificate")).to_contain_text(
            "needs an evaluation certificate for its current code"
        )
        # What a flag does is readable: not squeezed into a word a line.
        assert row.locator("td.description").bounding_box()["width"] >= 300
        screenshots(page, "46-operator-flags")
        row.get_by_role("button", name="Turn on").click()
        expect(page.locator(".messagelist")).to_contain_text(
            "needs an evaluation certificate for its current code"
        )
        screenshots(page, "47-operator-flags-refused")
