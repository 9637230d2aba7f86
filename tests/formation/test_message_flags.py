"""A conversation that only appends messages, never running or closing, is formed too: its
first user message past the watermark flags it, due at the same idle boundary as a run's flag."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone
from django_q.tasks import async_task

from common.principal import principal_context
from formation.models import ConsolidationWatermark
from formation.selectors import formation_due
from formation.services import formation_consolidate, formation_sweep
from memory.enums import EventType
from memory.models import Belief, Event
from memory.services.sessions import event_append, session_create
from tests.memory.helpers import conversation, say
from tests.memory.test_worker_end_to_end import cluster, wait_for  # noqa: F401 (a fixture)

from .formation_helpers import ScriptedExtractor, candidate, later, user_messages


def kindle(message):
    return candidate(message, "device:kindle", "User owns a kindle.")


def log(principal, session):
    with principal_context(principal):
        return list(
            Event.objects.filter(session=session)
            .order_by("sequence")
            .values_list("sequence", "event_type")
        )


def flags(principal, session):
    with principal_context(principal):
        return list(
            Event.objects.filter(
                session=session, event_type=EventType.FORMATION_REQUESTED
            ).order_by("sequence")
        )


def watermark(principal, session):
    with principal_context(principal):
        return ConsolidationWatermark.objects.get(session=session).sequence


def owned(principal):
    with principal_context(principal):
        return list(Belief.objects.filter(owner=principal).values_list("statement", flat=True))


def test_the_first_message_flags_the_session_and_a_burst_flags_it_once(owner):
    session, (first, *_) = conversation(owner, "I got a kindle.", "It is great.", "Really.")

    (flag,) = flags(owner, session)
    assert flag.sequence == first.sequence + 1
    assert flag.payload["reason"] == "messages"
    assert flag.derivation_key == f"formation:messages:{session.public_id}:{first.sequence}"
    due = timezone.datetime.fromisoformat(flag.payload["not_before"])
    assert timedelta(seconds=29) < due - flag.created_at < timedelta(seconds=31)
    assert (flag.text, flag.parts) == ("", [])


def test_a_message_only_conversation_is_due_once_quiet_and_formed(owner):
    session, _ = conversation(owner, "I just got a Brompton folding bike.")

    assert formation_due(now=timezone.now()) == []  # not quiet yet
    (due,) = formation_due(now=later())
    assert due.session_public_id == str(session.public_id)
    formation_sweep(now=later())

    assert "User owns a Brompton folding bike." in owned(owner)
    assert watermark(owner, session) == log(owner, session)[-1][0]
    assert formation_due(now=later(120)) == []


def test_a_message_after_the_watermark_flags_again(owner):
    session, _ = conversation(owner, "I just got a Brompton folding bike.")
    formation_sweep(now=later())

    said = say(owner, session, "I also got a Garmin watch.")

    assert [f.sequence for f in flags(owner, session)] == [2, said.sequence + 1]
    assert [d.session_public_id for d in formation_due(now=later())] == [str(session.public_id)]


def test_assistant_and_participant_messages_flag_nothing(owner):
    session = session_create(principal=owner)
    say(owner, session, "Hello, how can I help?", event_type=EventType.ASSISTANT_MESSAGE)
    say(owner, session, "Sam here.", event_type=EventType.PARTICIPANT_MESSAGE, author_name="Sam")

    assert flags(owner, session) == []
    assert formation_due(now=later()) == []


def test_a_replayed_message_adds_no_flag(owner):
    session = session_create(principal=owner)
    say(owner, session, "I got a kindle.", external_id="m-1")
    before = log(owner, session)

    say(owner, session, "I got a kindle.", external_id="m-1")

    assert log(owner, session) == before


def test_a_message_appended_while_the_extractor_works_is_flagged_by_the_consolidation(owner):
    # The append sees the pending flag and adds none; the watermark the consolidation
    # writes then covers that flag but not the message, so the consolidation flags it.
    session, _ = conversation(owner, "I got a kindle.")
    late = []

    def propose_and_hear_more(request):
        late.append(say(owner, session, "I got a pixel too."))
        return [kindle(message) for message in user_messages(request)]

    formation_consolidate(
        principal=owner,
        session_id=session.public_id,
        extractor=ScriptedExtractor(propose_and_hear_more),
    )

    (message,) = late
    assert watermark(owner, session) == message.sequence - 1
    assert [f.sequence for f in flags(owner, session)] == [2, message.sequence + 1]
    assert flags(owner, session)[-1].payload["reason"] == "messages"
    formation_sweep(now=later())
    assert watermark(owner, session) >= message.sequence


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_append_in_flight_when_the_consolidation_commits_is_never_left_unflagged(owner):
    """The race on PostgreSQL, with two connections: an append holds the session's row lock
    (its flag check done, seeing the old watermark) while the consolidation wants to commit."""
    session, _ = conversation(owner, "I got a kindle.")
    appended, go_on, errors = threading.Event(), threading.Event(), []

    def append_and_hold():
        try:
            with principal_context(owner), transaction.atomic():
                event_append(
                    principal=owner,
                    session_id=session.public_id,
                    event_type=EventType.USER_MESSAGE,
                    parts=[{"type": "text", "text": "I got a pixel too."}],
                )
                appended.set()
                go_on.wait(timeout=30)
        except Exception as error:  # asserted below
            errors.append(error)
        finally:
            connection.close()

    def propose_while_an_append_is_open(request):
        holder.start()
        assert appended.wait(timeout=30)
        # The consolidation will block on the session's lock; let the append commit a
        # moment after it started waiting.
        threading.Timer(0.5, go_on.set).start()
        return [kindle(message) for message in user_messages(request)]

    holder = threading.Thread(target=append_and_hold)
    formation_consolidate(
        principal=owner,
        session_id=session.public_id,
        extractor=ScriptedExtractor(propose_while_an_append_is_open),
    )
    holder.join(timeout=30)

    assert errors == []
    kinds = log(owner, session)
    message = next(s for s, kind in kinds if kind == EventType.USER_MESSAGE and s > 1)
    assert watermark(owner, session) < message
    assert any(
        kind == EventType.FORMATION_REQUESTED and s > watermark(owner, session) for s, kind in kinds
    )


@pytest.fixture
def no_idle_window(monkeypatch, settings):
    """Flags due at once, here and in the cluster started after this."""
    monkeypatch.setenv("REVERIE_FORMATION_IDLE_SECONDS", "0")
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "idle_seconds": 0}


@pytest.mark.django_db(transaction=True)
def test_the_cluster_forms_a_conversation_that_never_ran(owner, no_idle_window, cluster):  # noqa: F811
    conversation(owner, "I just got a Brompton folding bike.")

    async_task("formation.tasks.formation_sweep_task", sync=False)

    assert wait_for(lambda: "User owns a Brompton folding bike." in owned(owner)), (
        "the cluster formed nothing from a conversation without runs"
    )
