"""The sign-in counters' database cache: every process counts the same failures, and counting
is safe when they count at once."""

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils.module_loading import import_string

from accounts.forms import REFUSED
from accounts.login_throttle import login_throttle_purge
from accounts.sign_in_cache import TABLE, SignInDatabaseCache
from accounts.tasks import login_throttle_purge_task
from common.schedules import declared_schedules
from tests.concurrency import race
from tests.review.browser import PASSWORD

ATTACKER = "198.51.100.7"

# Another process, with the production settings (no REDIS_URL): it fails to sign
# in as "owner" from the attacker's address, six times.
FAIL_ELSEWHERE = """
import django
django.setup()
from accounts.login_throttle import login_attempt_begin, login_attempt_failed
for _ in range(6):
    login_attempt_failed(login_attempt_begin(username="owner", address="198.51.100.7"))
"""


def database_url():
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    host, port = database["HOST"] or "127.0.0.1", database["PORT"] or "5432"
    return f"postgres://{database['USER']}@{host}:{port}/{database['NAME']}"


def in_another_process(code):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DEBUG"} and not key.startswith("REVERIE_LOGIN_")
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="k" * 60,
        REVERIE_ENV_FILE="",
        DATABASE_URL=database_url(),
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db(transaction=True)
def test_two_processes_count_the_same_failures(client, owner, sign_in_counted_in_database):
    owner.set_password(PASSWORD)
    owner.save()

    elsewhere = in_another_process(FAIL_ELSEWHERE)
    assert elsewhere.returncode == 0, elsewhere.stderr
    for _ in range(4):
        client.post(
            reverse("review:login"),
            {"username": "owner", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=ATTACKER,
        )
    response = client.post(
        reverse("review:login"),
        {"username": "owner", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR=ATTACKER,
    )

    # Six failures there and four here: the pair's limit of ten is reached.
    assert settings.REVERIE_LOGIN["failures_per_pair"] == 10
    assert REFUSED in response.context["form"].non_field_errors()


@pytest.mark.django_db(transaction=True)
def test_counting_at_once_loses_no_count(sign_in_counted_in_database):
    from django.core.cache import caches

    sign_in_counted_in_database.add("count", 0, timeout=600)

    def count_twenty():
        cache = caches["sign_in"]  # each thread its own, on its own connection
        for _ in range(20):
            cache.incr("count")

    race(count_twenty, workers=4)

    assert sign_in_counted_in_database.get("count") == 80


def expires(key):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT expires FROM {TABLE} WHERE cache_key LIKE %s", [f"%:{key}"])
        return [row[0] for row in cursor.fetchall()]


def test_counting_keeps_the_window_it_opened(sign_in_counted_in_database):
    cache = sign_in_counted_in_database
    cache.add("count", 1, timeout=900)
    opened = expires("count")

    assert cache.incr("count") == 2
    assert cache.decr("count") == 1
    assert expires("count") == opened


def test_there_is_nothing_to_count_once_the_window_has_ended(sign_in_counted_in_database):
    cache = sign_in_counted_in_database
    cache.add("count", 1, timeout=1)
    time.sleep(2.1)  # Expiries are stored to the second.

    with pytest.raises(ValueError):
        cache.incr("count")
    with pytest.raises(ValueError):
        cache.incr("never-counted")
    assert cache.get("count") is None
    assert cache.add("count", 7, timeout=900)
    assert cache.get("count") == 7
    assert not cache.add("count", 8, timeout=900)


def test_a_full_table_evicts_nothing_when_written(sign_in_counted_in_database):
    small = SignInDatabaseCache(TABLE, {"OPTIONS": {"MAX_ENTRIES": 2}})
    for number in range(3):
        small.add(f"old{number}", 1, timeout=1)
    for number in range(3):
        small.add(f"live{number}", 1, timeout=900)
    time.sleep(2.1)

    small.set("one-more", 1, timeout=900)

    assert all(
        len(expires(f"{kind}{number}")) == 1 for kind in ("old", "live") for number in range(3)
    )


def test_the_purge_deletes_expired_counters_and_never_a_live_one(sign_in_counted_in_database):
    cache = sign_in_counted_in_database
    for number in range(3):
        cache.add(f"old{number}", 1, timeout=1)
        cache.add(f"live{number}", 1, timeout=900)
    time.sleep(2.1)

    assert login_throttle_purge() == 3
    assert cache.get_many([f"live{number}" for number in range(3)]) == {
        "live0": 1,
        "live1": 1,
        "live2": 1,
    }
    assert all(expires(f"old{number}") == [] for number in range(3))


def test_the_worker_purges_every_ten_minutes():
    (spec,) = [s for s in declared_schedules() if s["name"] == "accounts.sign_in_purge"]

    assert spec["minutes"] == 10 and spec["repeats"] == -1
    assert import_string(spec["func"]) is login_throttle_purge_task


def test_with_counters_kept_elsewhere_there_is_nothing_to_purge(db):
    # The tests' default: memory, as Redis, expires its own keys.
    assert login_throttle_purge() == 0
