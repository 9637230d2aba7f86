import pytest
from django.db import connection

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import BeliefStatus, EventType
from memory.models import AuditRecord, Belief, BeliefSource, DeletionFence, Event
from memory.selectors.recall import recall
from memory.services.erasure import event_erase, session_erase
from memory.services.sessions import run_create, session_close, session_create

from .helpers import conversation, remember, say


def reload(principal, obj):
    with principal_context(principal):
        return type(obj).objects.get(pk=obj.pk)


def test_erasing_a_message_removes_its_text(owner):
    _, (message, other) = conversation(owner, "My locker code is 2231.", "See you Monday.")

    erased = event_erase(principal=owner, event_id=message.public_id)

    assert (erased.text, erased.parts) == ("", [])
    assert erased.redacted_at is not None
    assert reload(owner, other).text == "See you Monday."


def test_erasing_a_message_erases_the_memories_formed_from_it(owner):
    _, (message, other) = conversation(owner, "My locker code is 2231.", "I like tea.")
    dependent = remember(owner, "User's locker code is 2231.", sources=[message])
    independent = remember(owner, "User likes tea.", sources=[other])

    event_erase(principal=owner, event_id=message.public_id)

    dependent = reload(owner, dependent)
    assert (dependent.status, dependent.statement) == (BeliefStatus.DELETED, "")
    assert reload(owner, independent).status == BeliefStatus.ACTIVE
    with principal_context(owner):
        assert BeliefSource.objects.get(belief=dependent).excerpt == ""
        assert DeletionFence.objects.get(belief=dependent).events.get() == message
        audit = AuditRecord.objects.get(action="event_erased")
    assert audit.details == {"beliefs_deleted": 1}
    assert recall(principal=owner, query="locker code", include=["messages"]).items == []


def test_erasing_a_message_twice_changes_nothing(owner):
    _, (message,) = conversation(owner, "Secret.")
    event_erase(principal=owner, event_id=message.public_id)

    event_erase(principal=owner, event_id=message.public_id)

    with principal_context(owner):
        assert AuditRecord.objects.filter(action="event_erased").count() == 1


def test_system_events_have_no_text_to_erase(owner):
    session = session_create(principal=owner)
    run_create(principal=owner, session_id=session.public_id)
    session_close(principal=owner, session_id=session.public_id)
    with principal_context(owner):
        closed = Event.objects.get(event_type=EventType.SESSION_CLOSED)

    with pytest.raises(ReverieError) as error:
        event_erase(principal=owner, event_id=closed.public_id)

    assert error.value.code == "validation_error"


def test_another_owners_message_is_not_found(owner, other_owner):
    _, (theirs,) = conversation(other_owner, "Mine, not yours.")

    with pytest.raises(ReverieError) as error:
        event_erase(principal=owner, event_id=theirs.public_id)

    assert error.value.code == "not_found"
    assert reload(other_owner, theirs).text == "Mine, not yours."


def test_erasing_a_session_redacts_every_message_and_dependent_memory(owner):
    session, messages = conversation(owner, "I was diagnosed with asthma.", "Thanks for listening.")
    say(owner, session, "You're welcome.", event_type=EventType.ASSISTANT_MESSAGE)
    health = remember(owner, "User has asthma.", sources=messages[:1], sensitivity="sensitive")
    unrelated = remember(owner, "User likes tea.")

    erased = session_erase(principal=owner, session_id=session.public_id)

    assert erased.erased_at is not None and erased.closed_at is not None
    with principal_context(owner):
        texts = list(Event.objects.filter(session=session).values_list("text", flat=True))
        audit = AuditRecord.objects.get(action="session_erased")
        statuses = dict(Belief.objects.values_list("pk", "status"))
    assert set(texts) == {""}
    assert audit.details == {"events_redacted": 3, "beliefs_deleted": 1}
    assert statuses == {health.pk: "deleted", unrelated.pk: "active"}


def test_an_erased_session_takes_no_more_messages(owner):
    session, _ = conversation(owner, "hello")
    session_erase(principal=owner, session_id=session.public_id)

    with pytest.raises(ReverieError) as error:
        say(owner, session, "again")

    assert error.value.code == "conflict"


def test_another_owners_session_cannot_be_erased(owner, other_owner):
    theirs, (message,) = conversation(other_owner, "Mine, not yours.")

    with pytest.raises(ReverieError) as error:
        session_erase(principal=owner, session_id=theirs.public_id)

    assert error.value.code == "not_found"
    assert reload(other_owner, message).text == "Mine, not yours."


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a pragma of SQLite's")
def test_sqlite_overwrites_what_it_deletes(db):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA secure_delete")
        assert cursor.fetchone() == (1,)
