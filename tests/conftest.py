import importlib.util
import os

import pytest
from django.db import connection

from tests.factories import UserFactory

pytest_plugins = ["tests.fake_provider"]

# What the TLS-terminating proxy in front of a production deployment adds to
# every request; the tests run the production settings behind it.
PROXIED_HTTPS = {"HTTP_X_FORWARDED_PROTO": "https"}

REQUIRE_POSTGRES = os.environ.get("REVERIE_REQUIRE_POSTGRES") == "1"
REQUIRE_BROWSER = os.environ.get("REVERIE_REQUIRE_BROWSER") == "1"
CHROMIUM = "/usr/bin/chromium"


def browser_missing():
    """Why browser tests cannot run here, or None when they can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "needs the playwright package (pip install -r requirements.txt)"
    return None


def skip_browser_tests_without_a_browser(items):
    """Skip browser tests where chromium or Playwright is missing; in CI, fail instead."""
    missing = browser_missing()
    if missing is None:
        return
    if REQUIRE_BROWSER:
        raise pytest.UsageError(
            f"REVERIE_REQUIRE_BROWSER=1 but the browser tests cannot run: {missing}."
        )
    skip = pytest.mark.skip(reason=f"{missing} (CI sets REVERIE_REQUIRE_BROWSER=1)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_collection_modifyitems(config, items):
    """Skip PostgreSQL-only tests on SQLite and browser tests without a browser, with the
    reason shown; in CI, fail instead."""
    skip_browser_tests_without_a_browser(items)
    from django.conf import settings

    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    if REQUIRE_POSTGRES and not on_postgres:
        raise pytest.UsageError(
            "REVERIE_REQUIRE_POSTGRES=1 but DATABASE_URL is not a PostgreSQL database."
        )
    if on_postgres:
        return
    skip = pytest.mark.skip(
        reason=(
            "needs PostgreSQL: set DATABASE_URL=postgres://... (CI sets REVERIE_REQUIRE_POSTGRES=1)"
        )
    )
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters, recently read flags, subjects found consistent and queries'
    vectors: no test inherits another's (ids and frozen clocks repeat from test to test)."""
    from django.core.cache import cache, caches

    from common.selectors.flags import flag_cache_clear
    from memory.embeddings.queries import QUERIES
    from reconsolidation.consistent_subjects import consistent_forget

    cache.clear()
    caches["sign_in"].clear()
    flag_cache_clear()
    consistent_forget()
    QUERIES.clear()
    yield
    cache.clear()
    caches["sign_in"].clear()
    flag_cache_clear()
    consistent_forget()
    QUERIES.clear()


@pytest.fixture
def sign_in_counted_in_database(settings, db):
    """Sign-in counters in their database table, where production keeps them without Redis."""
    from django.core.cache import caches

    from accounts.sign_in_cache import TABLE

    settings.CACHES = {
        **settings.CACHES,
        "sign_in": {"BACKEND": "accounts.sign_in_cache.SignInDatabaseCache", "LOCATION": TABLE},
    }
    # Rows a transactional test commits outlive it.
    caches["sign_in"].clear()
    yield caches["sign_in"]
    caches["sign_in"].clear()


@pytest.fixture(autouse=True)
def _browser_origin_trusted(request):
    """A browser test's pages come from http://localhost:port while the proxy header says
    https, as if TLS ended there: trust that origin as an operator trusts the public one."""
    if request.node.get_closest_marker("browser") is None:
        return
    live_server = request.getfixturevalue("live_server")
    settings = request.getfixturevalue("settings")
    settings.CSRF_TRUSTED_ORIGINS = [live_server.url]


@pytest.fixture
def client():
    from django.test import Client

    return Client(**PROXIED_HTTPS)


@pytest.fixture
def on_postgres():
    return connection.vendor == "postgresql"


@pytest.fixture
def owner(db):
    return UserFactory(username="owner")


@pytest.fixture
def other_owner(db):
    return UserFactory(username="other-owner")


@pytest.fixture
def operator(db):
    """A member of the operator role, as `manage.py operators add` makes one."""
    from accounts.operators import operator_grant

    return operator_grant(user=UserFactory(username="operator"))


@pytest.fixture
def processing_on(db):
    """A certificate of the current reconsolidation code, then the owner's surface and the
    capability's flag on."""
    from common.services.flags import flag_set
    from tests.certificates import certificate_create

    certificate_create("reconsolidation")
    flag_set(key="reconsolidation_surface", enabled=True)
    flag_set(key="reconsolidation", enabled=True)


@pytest.fixture
def forget_digests():
    """For a test that changes what a file holds: the code digests read so far are forgotten
    before it and after it, so that it reads the change and no other test keeps it."""
    from evaluation.provenance import code_digests_forget

    code_digests_forget()
    yield code_digests_forget
    code_digests_forget()
