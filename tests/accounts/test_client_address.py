"""The client's address: X-Forwarded-For is believed only as far as trusted proxies wrote it."""

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory

from accounts.client_address import client_address


@pytest.fixture
def proxies(settings):
    settings.REVERIE_TRUSTED_PROXIES = ["127.0.0.1", "::1", "10.0.0.0/8"]
    return settings.REVERIE_TRUSTED_PROXIES


def address(remote, forwarded=None):
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **headers))


def test_behind_a_trusted_proxy_the_client_is_the_address_it_appended(proxies):
    assert address("127.0.0.1", "203.0.113.5") == "203.0.113.5"


def test_what_the_client_wrote_itself_is_ignored(proxies):
    # The client sent "X-Forwarded-For: 192.0.2.1"; the proxy appended the real address.
    assert address("127.0.0.1", "192.0.2.1, 203.0.113.5") == "203.0.113.5"


def test_the_right_most_address_that_is_not_a_trusted_proxy_is_the_client(proxies):
    # Client, then an inner proxy at 10.1.2.3 that forwarded to the one on loopback.
    assert address("127.0.0.1", "192.0.2.1, 203.0.113.5, 10.1.2.3") == "203.0.113.5"


def test_a_header_from_an_untrusted_address_is_ignored(proxies):
    assert address("198.51.100.7", "203.0.113.5") == "198.51.100.7"


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.REVERIE_TRUSTED_PROXIES = []

    assert address("127.0.0.1", "203.0.113.5") == "127.0.0.1"


def test_a_trusted_proxy_without_the_header_is_the_client(proxies):
    assert address("127.0.0.1") == "127.0.0.1"
    assert address("127.0.0.1", "") == "127.0.0.1"


def test_an_entry_that_is_no_address_ends_the_walk_at_the_proxy_that_passed_it(proxies):
    assert address("127.0.0.1", "203.0.113.5, not-an-address") == "127.0.0.1"
    assert address("127.0.0.1", "not-an-address, 10.1.2.3") == "10.1.2.3"


def test_addresses_are_read_in_one_form(proxies):
    assert address("::ffff:127.0.0.1", "2001:DB8:0:0::1") == "2001:db8::1"
    assert address("::ffff:198.51.100.7") == "198.51.100.7"


def production_setting(**environment):
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.REVERIE_TRUSTED_PROXIES)"
    )
    scrubbed = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REVERIE_BEHIND_TLS_PROXY", "REVERIE_TRUSTED_PROXIES", "DEBUG"}
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        env={
            **scrubbed,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SECRET_KEY": "k" * 60,
            "REVERIE_ENV_FILE": "",
            **environment,
        },
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_loopback_is_the_trusted_proxy_behind_the_tls_proxy_and_nothing_is_otherwise():
    behind = production_setting(REVERIE_BEHIND_TLS_PROXY="1")
    direct = production_setting()
    chosen = production_setting(REVERIE_BEHIND_TLS_PROXY="1", REVERIE_TRUSTED_PROXIES="10.0.0.2")

    assert behind.stdout.strip() == "['127.0.0.1', '::1']", behind.stderr
    assert direct.stdout.strip() == "[]", direct.stderr
    assert chosen.stdout.strip() == "['10.0.0.2']", chosen.stderr


def test_a_trusted_proxy_that_is_no_address_stops_the_start():
    started = production_setting(REVERIE_TRUSTED_PROXIES="127.0.0.1,proxy.internal")

    assert started.returncode != 0
    assert "REVERIE_TRUSTED_PROXIES: 'proxy.internal' is not an address" in started.stderr
