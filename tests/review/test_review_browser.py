"""The review site in a real browser: Debian's chromium driven by Playwright, against a live server.

Playwright's sync API keeps an asyncio event loop running in the test's
thread for as long as it is started, and Django refuses ORM calls from a
thread with a running loop (``SynchronousOnlyOperation``). So each test
builds its data first, drives the browser inside ``chromium_page()``, and
reads the database again only after the browser is gone. The live server
answers from its own thread, which has no loop.

Each screen is saved as a full-page PNG in ``REVERIE_SCREENSHOTS_DIR``
(default ``var/screenshots``).
"""

import json
from pathlib import Path

import pytest

from memory.enums import BeliefStatus, BeliefType, EventType
from tests.memory.helpers import conversation, remember, say

from .browser import chromium_page, log_in
from .conftest import THEIR_SECRET
from .helpers import formation_given_up, formed, memory_url, owned, session_url, waiting_retry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def their_rows(other_owner):
    session, (message,) = conversation(other_owner, f"Remember this: {THEIR_SECRET}")
    belief = remember(other_owner, THEIR_SECRET, sources=[message])
    return {"session": session, "belief": belief}


@pytest.fixture
def owners_rows(owner):
    session, (watch, answers, sister) = conversation(
        owner,
        "I just got an Apple Watch and I drive a BMW X3.",
        "Keep your answers short, I prefer that.",
        "Remember that my sister Ana lives in Lisbon.",
    )
    say(owner, session, "Noted, short answers it is.", event_type=EventType.ASSISTANT_MESSAGE)
    return {
        "session": session,
        "watch": formed(
            owner,
            "User owns an Apple Watch.",
            sources=[watch],
            type=BeliefType.OWNERSHIP,
            subject="device:apple-watch",
        ),
        "answers": formed(
            owner,
            "User prefers long answers.",
            sources=[answers],
            type=BeliefType.PREFERENCE,
            subject="pref:answer-style",
        ),
        "car": remember(
            owner,
            "User drives a BMW X3.",
            sources=[watch],
            type=BeliefType.OWNERSHIP,
            subject="vehicle:bmw-x3",
        ),
        "sister": remember(
            owner,
            "User's sister Ana lives in Lisbon.",
            sources=[sister],
            type=BeliefType.RELATIONSHIP,
            subject="person:ana",
        ),
        "flagged": formed(
            owner,
            "User's blood type is A+.",
            status=BeliefStatus.ACTIVE,
            needs_review=True,
            sensitivity="sensitive",
        ),
    }


def test_an_owner_reviews_corrects_and_erases_memories(
    live_server, owner, owners_rows, their_rows, screenshots
):
    from playwright.sync_api import expect

    base = live_server.url
    with chromium_page() as page:
        page.goto(f"{base}/review/")
        screenshots(page, "01-login")
        log_in(page, base, "owner")
        screenshots(page, "02-index")

        page.click("#review-nav >> text=Review queue")
        expect(page.locator("h1")).to_have_text("Review queue")
        expect(page.locator("#result_list tbody tr")).to_have_count(3)
        screenshots(page, "03-queue")

        watch = page.locator("#result_list tr", has_text="User owns an Apple Watch.")
        watch.get_by_role("button", name="Confirm").click()
        expect(page.locator(".messagelist")).to_have_text("Confirmed the memory.")
        expect(page.locator("#result_list tbody tr")).to_have_count(2)
        screenshots(page, "04-queue-confirmed")

        answers = page.locator("#result_list tr", has_text="User prefers long answers.")
        answers.get_by_role("button", name="Reject").click()
        expect(page.locator(".messagelist")).to_have_text("Rejected the memory.")
        expect(page.locator("#result_list tbody tr")).to_have_count(1)
        screenshots(page, "05-queue-rejected")

        page.click("#review-nav >> text=Memories")
        expect(page.locator("h1")).to_have_text("Your memories")
        screenshots(page, "06-memories")
        page.click("#result_list >> text=User drives a BMW X3.")
        expect(page.locator(".review-statement")).to_have_text("User drives a BMW X3.")
        # Its sources line up with the other values of the page.
        source = page.locator(".field-sources .readonly li").first.bounding_box()
        statement = page.locator(".field-statement .readonly").bounding_box()
        assert abs(source["x"] - statement["x"]) < 2, (source, statement)
        # The technical fields wait, closed, under Details.
        subject = page.locator(".field-subject")
        expect(subject).to_be_hidden()
        page.locator("summary", has_text="Details").click()
        expect(subject).to_contain_text("vehicle:bmw-x3")
        screenshots(page, "07-memory")

        page.click("#correct-link")
        expect(page.locator("#id_statement")).to_have_value("User drives a BMW X3.")
        page.fill("#id_statement", "User drives a Volvo XC60.")
        # The wording only: the correction stays about the same thing.
        expect(page.locator("#id_subject")).to_have_count(0)
        screenshots(page, "08-correct-form")
        page.click("input[name=_preview]")
        expect(page.locator("#content-main")).to_contain_text("You are about to replace")
        expect(page.locator("#new-statement")).to_have_text("User drives a Volvo XC60.")
        screenshots(page, "09-correct-confirm")
        page.click("input[name=_confirm]")
        expect(page.locator(".messagelist")).to_have_text(
            "Corrected: the new version replaces the old one."
        )
        expect(page.locator(".review-statement")).to_have_text("User drives a Volvo XC60.")
        screenshots(page, "10-corrected")

        page.click("#history-link")
        expect(page.locator("#versions tbody tr")).to_have_count(2)
        expect(page.locator("#versions")).to_contain_text("User drives a BMW X3.")
        expect(page.locator("#changes")).to_contain_text("Superseded")
        screenshots(page, "11-history")

        page.goto(f"{base}{memory_url(owners_rows['sister'])}")
        page.click("#delete-link")
        expect(page.locator("#content-main")).to_contain_text("cannot be undone")
        screenshots(page, "12-erase-confirmation")
        page.click("#delete-form input[type=submit]")
        expect(page.locator(".messagelist")).to_have_text("The memory was erased.")
        expect(page.locator("#result_list")).not_to_contain_text("Lisbon")
        screenshots(page, "13-erased")

        page.click("#review-nav >> text=Conversations")
        expect(page.locator("#result_list")).to_contain_text("I just got an Apple Watch")
        screenshots(page, "14-conversations")
        page.goto(f"{base}{session_url(owners_rows['session'])}")
        expect(page.locator("#messages li")).to_have_count(4)
        screenshots(page, "15-conversation")

        page.click("#review-nav >> text=Account")
        screenshots(page, "16-account")
        with page.expect_download() as download:
            page.click("#export-button")
        export = json.loads(Path(download.value.path()).read_text())
        page.click("#erase-link")
        expect(page.locator("#erase-form")).to_be_visible()
        screenshots(page, "17-erase-account")

    assert [m["statement"] for m in export["memories"] if m["status"] == "active"] == [
        "User owns an Apple Watch.",
        "User's blood type is A+.",
        "User drives a Volvo XC60.",
    ]
    statuses = {b.statement or "(erased)": b.status for b in owned(owner)}
    assert statuses == {
        "User owns an Apple Watch.": "active",
        "User prefers long answers.": "rejected",
        "User drives a BMW X3.": "superseded",
        "User drives a Volvo XC60.": "active",
        "(erased)": "deleted",
        "User's blood type is A+.": "active",
    }


def test_another_owners_rows_stay_invisible_even_by_url(
    live_server, owner, other_owner, owners_rows, their_rows, screenshots
):
    base = live_server.url
    tampered = [
        memory_url(their_rows["belief"]),
        memory_url(their_rows["belief"], "history"),
        memory_url(their_rows["belief"], "delete"),
        memory_url(their_rows["belief"], "correct"),
        session_url(their_rows["session"]),
    ]
    lists = [
        "/review/",
        "/review/queue/",
        "/review/memory/belief/",
        "/review/memory/belief/?q=4711",
        "/review/memory/session/",
    ]
    with chromium_page() as page:
        log_in(page, base, "owner")
        for number, url in enumerate(tampered):
            response = page.goto(f"{base}{url}")
            assert response.status == 404, url
            assert THEIR_SECRET not in page.content(), url
            screenshots(page, f"20-tampered-{number}")
        for number, url in enumerate(lists):
            response = page.goto(f"{base}{url}")
            assert response.status == 200, url
            assert THEIR_SECRET not in page.content(), url
            screenshots(page, f"21-list-{number}")

    assert [b.statement for b in owned(other_owner)] == [THEIR_SECRET]


def test_an_owner_retries_a_conversation_formation_gave_up_on(
    live_server, owner, settings, screenshots
):
    from playwright.sync_api import expect

    session = formation_given_up(owner, settings)
    base = live_server.url
    with chromium_page() as page:
        log_in(page, base, "owner")
        page.click("#review-nav >> text=Conversations")
        expect(page.locator("#result_list")).to_contain_text("memories could not be formed")
        page.goto(f"{base}{session_url(session)}")
        expect(page.locator("#formation-failure")).to_contain_text("could not be formed")
        screenshots(page, "30-formation-gave-up")
        page.click("#retry-formation-button")
        expect(page.locator(".messagelist")).to_contain_text("Reverie will try again")
        expect(page.locator("#formation-failure")).to_have_count(0)
        screenshots(page, "31-formation-retried")

    assert waiting_retry(owner, session) is None
