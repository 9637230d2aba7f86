import os

import pytest
from django.db import connection

from tests.factories import UserFactory

REQUIRE_POSTGRES = os.environ.get("REVERIE_REQUIRE_POSTGRES") == "1"


def pytest_collection_modifyitems(config, items):
    """Skip PostgreSQL-only tests on SQLite, with the reason shown; in CI, fail instead."""
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
    """Throttle counters live in the cache; no test inherits another's."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


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
    return UserFactory(username="operator", is_staff=True, is_superuser=True)
