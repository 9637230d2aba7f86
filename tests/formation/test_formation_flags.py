"""The post-run hook and the session-close boundary flag sessions for formation."""

import logging
from datetime import timedelta

from django.utils import timezone

from common.principal import principal_context
from memory.enums import EventType
from memory.models import Event
from memory.services import sessions as session_services
from memory.services.sessions import run_complete, run_create, run_fail, run_wait
from tests.memory.helpers import conversation


def flags(principal, session):
    """The session's formation flags but the one its first message raised."""
    with principal_context(principal):
        found = Event.objects.filter(session=session, event_type=EventType.FORMATION_REQUESTED)
        return [flag for flag in found if flag.payload["reason"] != "messages"]


def test_a_completed_run_flags_its_session_after_commit(owner, django_capture_on_commit_callbacks):
    session, _ = conversation(owner, "I just got an Apple Watch.")
    run = run_create(principal=owner, session_id=session.public_id)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run_complete(principal=owner, run_id=run.public_id)
        assert flags(owner, session) == []  # nothing before the commit
    for callback in callbacks:
        callback()

    (flag,) = flags(owner, session)
    assert flag.derivation_key == f"formation:run:{run.public_id}"
    assert flag.payload["reason"] == "run_completed"
    due = timezone.datetime.fromisoformat(flag.payload["not_before"])
    assert timedelta(seconds=29) < due - flag.created_at < timedelta(seconds=31)
    assert flag.text == "" and flag.parts == []


def test_a_failed_run_flags_too_but_a_waiting_run_does_not(
    owner, django_capture_on_commit_callbacks
):
    session, _ = conversation(owner, "hello")
    waiting = run_create(principal=owner, session_id=session.public_id)
    failing = run_create(principal=owner, session_id=session.public_id)

    with django_capture_on_commit_callbacks(execute=True):
        run_wait(principal=owner, run_id=waiting.public_id)
    assert flags(owner, session) == []
    with django_capture_on_commit_callbacks(execute=True):
        run_fail(principal=owner, run_id=failing.public_id)
    assert [f.payload["reason"] for f in flags(owner, session)] == ["run_failed"]


def test_a_retried_hook_adds_nothing(owner, django_capture_on_commit_callbacks):
    session, _ = conversation(owner, "hello")
    run = run_create(principal=owner, session_id=session.public_id)
    with django_capture_on_commit_callbacks() as callbacks:
        run_complete(principal=owner, run_id=run.public_id)

    for callback in callbacks * 3:
        callback()

    assert len(flags(owner, session)) == 1


def test_a_failing_hook_is_logged_and_the_run_still_completes(
    owner, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    session, _ = conversation(owner, "hello")
    run = run_create(principal=owner, session_id=session.public_id)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(session_services, "_request_formation", broken)
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        completed = run_complete(principal=owner, run_id=run.public_id)

    assert completed.status == "completed"
    with principal_context(owner):
        run.refresh_from_db()
    assert run.status == "completed"
    assert "could not flag session" in caplog.text
    assert flags(owner, session) == []
