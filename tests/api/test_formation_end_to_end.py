"""The user-visible promise, end to end: memories form after the session goes quiet.

Through the API, with the real django-q2 cluster running the formation
schedule against the same (file-based or PostgreSQL) test database.
"""

import time

import pytest
from django.conf import settings as django_settings

from common.schedules import schedules_sync
from tests.memory.test_worker_end_to_end import cluster  # noqa: F401 - the fixture

from .conftest import client_for
from .helpers import say, start_session

IDLE_SECONDS = 2


@pytest.fixture
def quick_formation(settings, monkeypatch):
    """A short idle window here and in the worker, and the schedule as low as q2 allows."""
    settings.REVERIE_FORMATION = {
        **django_settings.REVERIE_FORMATION,
        "idle_seconds": IDLE_SECONDS,
        "sweep_seconds": 1,
    }
    monkeypatch.setenv("REVERIE_FORMATION_IDLE_SECONDS", str(IDLE_SECONDS))
    schedules_sync()


def wait_for(fetch, done, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fetch()
        if done(value):
            return value
        time.sleep(1)
    return value


def memories(api):
    """The live memories by subject."""
    return {
        m["subject"]: m
        for m in api.get("/api/v1/memories?status=provisional,active").json()["results"]
    }


@pytest.mark.django_db(transaction=True)
def test_an_ordinary_conversation_forms_two_memories_without_a_close(
    owner, quick_formation, request
):
    api = client_for(owner)
    session = start_session(api)
    say(api, session, "I just got an Apple Watch and I drive a BMW X3.")
    run = api.post(f"/api/v1/sessions/{session['id']}/runs").json()
    started = time.monotonic()
    assert api.post(f"/api/v1/runs/{run['id']}/complete").status_code == 200
    request.getfixturevalue("cluster")

    formed = wait_for(lambda: memories(api), lambda found: len(found) >= 2)

    assert set(formed) == {"device:apple-watch", "vehicle:bmw-x3"}, formed
    for memory in formed.values():
        assert (memory["status"], memory["authority"]) == ("provisional", "inferred")
    # The scheduler looks every 30 s; the session was quiet after 2 s.
    assert time.monotonic() - started < 100

    # A later message, in another turn, retracts only the BMW.
    say(api, session, "I sold the BMW last week.")
    run = api.post(f"/api/v1/sessions/{session['id']}/runs").json()
    api.post(f"/api/v1/runs/{run['id']}/complete")

    after = wait_for(
        lambda: memories(api),
        lambda found: any(m["polarity"] == "negative" for m in found.values()),
    )

    assert after["vehicle:bmw-x3"]["polarity"] == "negative"
    assert after["device:apple-watch"]["status"] == "provisional"
    assert after["device:apple-watch"]["polarity"] == "positive"
