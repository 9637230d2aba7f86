import pytest

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import EventType, RunStatus
from memory.selectors.sessions import event_list
from memory.services.sessions import (
    run_complete,
    run_create,
    run_fail,
    run_wait,
    session_close,
    session_create,
)


def event_types(principal, session):
    with principal_context(principal):
        return [e.event_type for e in event_list(principal=principal, session_id=session.public_id)]


@pytest.fixture
def session(owner):
    return session_create(principal=owner)


def test_a_new_run_is_running(owner, session):
    run = run_create(principal=owner, session_id=session.public_id)

    assert run.status == RunStatus.RUNNING
    assert run.finished_at is None


def test_completing_a_run_finishes_it_and_logs_it(owner, session):
    run = run_create(principal=owner, session_id=session.public_id)

    run = run_complete(principal=owner, run_id=run.public_id)

    assert run.status == RunStatus.COMPLETED
    assert run.finished_at is not None
    assert event_types(owner, session) == [EventType.RUN_COMPLETED]


def test_a_failed_run_records_its_error_code(owner, session):
    run = run_create(principal=owner, session_id=session.public_id)

    run = run_fail(principal=owner, run_id=run.public_id, error_code="model_timeout")

    assert (run.status, run.error_code) == (RunStatus.FAILED, "model_timeout")
    with principal_context(owner):
        logged = event_list(principal=owner, session_id=session.public_id).get()
    assert logged.payload == {"run_id": str(run.public_id), "error_code": "model_timeout"}


def test_a_waiting_run_can_still_complete(owner, session):
    run = run_create(principal=owner, session_id=session.public_id)

    run_wait(principal=owner, run_id=run.public_id)
    run_wait(principal=owner, run_id=run.public_id)
    run = run_complete(principal=owner, run_id=run.public_id)

    assert run.status == RunStatus.COMPLETED
    assert event_types(owner, session) == [EventType.RUN_WAITING, EventType.RUN_COMPLETED]


@pytest.mark.parametrize("finish", [run_complete, run_fail])
@pytest.mark.parametrize("then", [run_complete, run_fail, run_wait])
def test_a_terminal_run_cannot_change_again(owner, session, finish, then):
    run = run_create(principal=owner, session_id=session.public_id)
    finish(principal=owner, run_id=run.public_id)

    with pytest.raises(ReverieError) as error:
        then(principal=owner, run_id=run.public_id)

    assert error.value.code == "conflict"
    assert len(event_types(owner, session)) == 1


def test_a_run_cannot_start_in_a_closed_session(owner, session):
    session_close(principal=owner, session_id=session.public_id)

    with pytest.raises(ReverieError) as error:
        run_create(principal=owner, session_id=session.public_id)

    assert error.value.code == "conflict"


def test_another_owners_run_is_not_found(owner, other_owner):
    theirs = session_create(principal=other_owner)
    run = run_create(principal=other_owner, session_id=theirs.public_id)

    with pytest.raises(ReverieError) as error:
        run_complete(principal=owner, run_id=run.public_id)

    assert error.value.code == "not_found"
    assert event_types(other_owner, theirs) == []


def test_an_overlong_error_code_is_refused_and_the_run_keeps_running(owner, session):
    run = run_create(principal=owner, session_id=session.public_id)

    with pytest.raises(ReverieError) as error:
        run_fail(principal=owner, run_id=run.public_id, error_code="x" * 81)

    assert error.value.code == "validation_error"
    with principal_context(owner):
        run.refresh_from_db()
    assert run.status == RunStatus.RUNNING
    assert event_types(owner, session) == []
