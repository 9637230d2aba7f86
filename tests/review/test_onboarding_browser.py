"""A new owner opens the link from the administrator, sets a password and signs in."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from .browser import chromium_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long walk by the river"


def test_a_new_owner_sets_a_password_and_signs_in(live_server, screenshots, settings):
    settings.REVERIE_PUBLIC_URL = live_server.url
    out = StringIO()
    call_command("principals", "create", "maria", stdout=out)
    link = re.search(r"(http\S+/review/password/\S+/)", out.getvalue()).group(1)

    with chromium_page() as page:
        from playwright.sync_api import expect

        page.goto(link)
        page.fill("#id_new_password1", PASSWORD)
        page.fill("#id_new_password2", PASSWORD)
        screenshots(page, "60-set-password")
        page.click("input[type=submit]")
        expect(page.locator(".messagelist")).to_have_text("Your password is set. Sign in with it.")
        page.fill("#id_username", "maria")
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        expect(page.locator("h1")).to_have_text("Your memories")
        screenshots(page, "61-signed-in")

        page.goto(link)
        expect(page.locator("#link-invalid")).to_be_visible()
