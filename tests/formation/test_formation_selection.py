"""Which sessions a sweep picks: due, idle, behind their watermark, oldest first."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from common.principal import discovery_context, principal_context
from formation import selectors as selection
from formation.models import ConsolidationWatermark
from formation.selectors import flag_due_at, formation_due
from memory.enums import AuthorKind, EventType
from memory.models import Belief, Event, Session
from memory.services.sessions import session_close, session_create
from tests.memory.helpers import remember, say

from .formation_helpers import later


def flag(principal, session, *, payload):
    """A formation flag as any writer (this one or an older one) might have left it."""
    with principal_context(principal):
        locked = Session.objects.select_for_update().get(pk=session.pk)
        locked.last_sequence += 1
        Session.objects.filter(pk=session.pk).update(last_sequence=locked.last_sequence)
        event = Event.objects.create(
            owner=principal,
            session=session,
            sequence=locked.last_sequence,
            event_type=EventType.FORMATION_REQUESTED,
            author_kind=AuthorKind.SYSTEM,
            payload=payload,
            occurred_at=timezone.now(),
        )
        return event


def spoken(principal, text="hello", **session_fields):
    """A session with one message that raises no flag of its own (the assistant's): the
    flags a test writes are then its only ones."""
    session = session_create(principal=principal, **session_fields)
    say(principal, session, text, event_type=EventType.ASSISTANT_MESSAGE)
    return session


def due_flag(principal, text="hello", **session_fields):
    session = spoken(principal, text, **session_fields)
    flag(principal, session, payload={"not_before": timezone.now().isoformat()})
    return session


def ids(due):
    return [d.session_public_id for d in due]


def test_a_flagged_session_is_due_once_idle(owner):
    session = due_flag(owner)

    assert formation_due(now=timezone.now()) == []  # just spoke
    assert ids(formation_due(now=later())) == [str(session.public_id)]


def test_a_flag_is_not_due_before_its_not_before(owner):
    session = spoken(owner)
    flag(owner, session, payload={"not_before": (timezone.now() + timedelta(hours=1)).isoformat()})

    assert formation_due(now=later()) == []
    assert ids(formation_due(now=later(3601))) == [str(session.public_id)]


def test_a_closed_session_is_due_at_once(owner):
    session = spoken(owner)

    session_close(principal=owner, session_id=session.public_id)

    assert ids(formation_due(now=timezone.now() + timedelta(seconds=1))) == [str(session.public_id)]


def test_a_flag_without_not_before_is_due_at_its_own_time(owner):
    session = spoken(owner)
    flag(owner, session, payload={})

    assert ids(formation_due(now=later())) == [str(session.public_id)]


@pytest.mark.parametrize(
    "not_before", ["next tuesday", "2026-01-01T10:00:00", 1767261600, ["2026-01-01T10:00Z"]]
)
def test_a_malformed_or_naive_flag_is_ineligible_and_the_sweep_goes_on(owner, not_before):
    bad = spoken(owner)
    flag(owner, bad, payload={"not_before": not_before})
    good = due_flag(owner, "good")

    assert ids(formation_due(now=later(10**6))) == [str(good.public_id)]


def test_due_at_reads_only_aware_iso_times():
    created = timezone.now()
    assert flag_due_at(created, {}) == created
    assert flag_due_at(created, {"not_before": "2026-01-01T10:00:00+00:00"}) is not None
    assert flag_due_at(created, {"not_before": "2026-01-01T10:00:00"}) is None
    assert flag_due_at(created, "not a dict") == created


def test_a_session_whose_watermark_covers_its_flag_is_not_due(owner):
    session = due_flag(owner)
    with principal_context(owner):
        ConsolidationWatermark.objects.create(
            owner=owner, session=session, sequence=Session.objects.get(pk=session.pk).last_sequence
        )

    assert formation_due(now=later()) == []


def test_oldest_flags_come_first_and_the_batch_bounds_the_result(owner, other_owner):
    older = due_flag(other_owner, "older")
    newer = due_flag(owner, "newer")

    assert ids(formation_due(now=later(), batch=5)) == [str(older.public_id), str(newer.public_id)]
    assert ids(formation_due(now=later(), batch=1)) == [str(older.public_id)]


@pytest.mark.parametrize("batch", [0, -3])
def test_a_non_positive_batch_selects_nothing(owner, batch):
    due_flag(owner)

    assert formation_due(now=later(), batch=batch) == []


def test_busy_sessions_ahead_of_an_idle_one_cannot_starve_it(owner, monkeypatch):
    monkeypatch.setattr(selection, "PAGE_SIZE", 2)
    busy = [due_flag(owner, f"busy {n}") for n in range(5)]
    idle = due_flag(owner, "idle")
    quiet_since = timezone.now() - timedelta(minutes=5)
    with principal_context(owner):
        Session.objects.filter(pk=idle.pk).update(last_activity_at=quiet_since)
        Session.objects.filter(pk__in=[s.pk for s in busy]).update(
            last_activity_at=timezone.now() + timedelta(minutes=5)
        )

    assert ids(formation_due(now=later(), batch=1)) == [str(idle.public_id)]


def test_discovery_reads_other_owners_flags(owner, other_owner):
    mine = due_flag(owner)
    theirs = due_flag(other_owner)

    assert set(ids(formation_due(now=later()))) == {str(mine.public_id), str(theirs.public_id)}


@pytest.mark.postgres
def test_discovery_sees_flags_and_watermarks_and_nothing_else(owner, other_owner):
    for principal in (owner, other_owner):
        due_flag(principal, "My passport number is secret.")
        remember(principal, "User keeps a passport.")

    with discovery_context("formation"):
        visible = list(Event.objects.values_list("event_type", flat=True))
        assert set(visible) == {EventType.FORMATION_REQUESTED} and len(visible) == 2
        assert Session.objects.count() == 0
        assert Belief.objects.count() == 0
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM memory_event WHERE text <> ''")
            assert cursor.fetchone()[0] == 0
    assert Event.objects.count() == 0  # and nothing once discovery ends
