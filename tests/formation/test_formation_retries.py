"""A consolidation that fails leaves its messages pending: tried again with backoff, then
shown to the owner and the operator, never skipped; other sessions go on meanwhile."""

from datetime import timedelta

import pytest
from django.utils import timezone

from common.principal import principal_context
from core.errors import ReverieError
from formation import services as formation_services
from formation.models import ConsolidationWatermark, FormationAudit, FormationRetry
from formation.overview import formation_retries
from formation.selectors import formation_due
from formation.services import formation_retry, formation_sweep, retry_delay
from memory.models import Belief
from memory.services.sessions import session_close
from tests.memory.helpers import conversation

from .formation_helpers import ScriptedExtractor, candidate, user_messages

IDLE = timedelta(seconds=31)


class ExtractorDown(Exception):
    pass


def failing(request):
    raise ExtractorDown


def owns_kindle(request):
    return [candidate(user_messages(request)[0], "device:kindle", "User owns a kindle.")]


def closed_conversation(principal, text="I own a kindle."):
    session, _ = conversation(principal, text)
    session_close(principal=principal, session_id=session.public_id)
    return session


def sweep(script, *, at):
    return formation_sweep(now=at, extractor=ScriptedExtractor(script))


def retry_of(principal, session):
    with principal_context(principal):
        return FormationRetry.objects.filter(session=session).first()


def due_ids(at):
    return {str(due.session_public_id) for due in formation_due(now=at)}


def test_a_failed_consolidation_keeps_its_messages_pending_and_waits_before_a_retry(
    owner, settings
):
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_seconds": 300}
    session = closed_conversation(owner)
    failed_at = timezone.now()

    (audit,) = sweep(failing, at=failed_at + IDLE)

    assert (audit.outcome, audit.error_class) == ("failed", "ExtractorDown")
    with principal_context(owner):
        assert not ConsolidationWatermark.objects.filter(session=session).exists()
    retry = retry_of(owner, session)
    assert retry.attempts == 1 and retry.gave_up_at is None
    assert failed_at + timedelta(seconds=300) <= retry.next_attempt_at
    assert retry.next_attempt_at <= timezone.now() + timedelta(seconds=300)
    assert str(session.public_id) not in due_ids(failed_at + IDLE)
    assert str(session.public_id) in due_ids(retry.next_attempt_at)


def test_a_retry_that_succeeds_forms_the_memories_and_clears_the_failure(owner):
    session = closed_conversation(owner)
    sweep(failing, at=timezone.now() + IDLE)
    retry_at = retry_of(owner, session).next_attempt_at

    (audit,) = sweep(owns_kindle, at=retry_at)

    assert (audit.outcome, audit.committed_count) == ("committed", 1)
    assert retry_of(owner, session) is None
    with principal_context(owner):
        assert Belief.objects.filter(owner=owner, subject="device:kindle").exists()


def test_the_wait_grows_fourfold_and_formation_gives_up_after_the_last_attempt(owner, settings):
    settings.REVERIE_FORMATION = {
        **settings.REVERIE_FORMATION,
        "retry_attempts": 3,
        "retry_seconds": 60,
    }
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3)] == [60, 240, 960]
    session = closed_conversation(owner)
    at = timezone.now() + IDLE
    for attempt in (1, 2, 3):
        (audit,) = sweep(failing, at=at)
        assert audit.outcome == "failed"
        retry = retry_of(owner, session)
        assert retry.attempts == attempt
        at = retry.next_attempt_at

    assert retry.gave_up_at is not None
    assert str(session.public_id) not in due_ids(timezone.now() + timedelta(days=365))
    assert sweep(owns_kindle, at=timezone.now() + timedelta(days=365)) == []


def test_the_owners_retry_makes_a_given_up_session_due_at_once(owner, settings):
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 1}
    session = closed_conversation(owner)
    sweep(failing, at=timezone.now() + IDLE)
    assert retry_of(owner, session).gave_up_at is not None

    assert formation_retry(principal=owner, session_id=session.public_id) is True
    (audit,) = sweep(owns_kindle, at=timezone.now() + IDLE)

    assert audit.outcome == "committed"
    assert formation_retry(principal=owner, session_id=session.public_id) is False


def test_one_principal_cannot_retry_anothers_session(owner, other_owner, settings):
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 1}
    session = closed_conversation(owner)
    sweep(failing, at=timezone.now() + IDLE)

    with pytest.raises(ReverieError) as raised:
        formation_retry(principal=other_owner, session_id=session.public_id)

    assert raised.value.code == "not_found"
    assert retry_of(owner, session).gave_up_at is not None


def test_a_session_that_always_fails_never_holds_up_the_others(owner, other_owner):
    poison = closed_conversation(other_owner, "boom")
    good = [closed_conversation(owner) for _ in range(3)]

    def script(request):
        if any("boom" in m.text for m in request.messages):
            raise ExtractorDown
        return owns_kindle(request)

    # One session a sweep: the poison is the oldest due, so it is tried first, and then
    # waits while the others are consolidated.
    outcomes = [
        audit.outcome
        for _ in range(4)
        for audit in formation_sweep(
            batch=1, now=timezone.now() + IDLE, extractor=ScriptedExtractor(script)
        )
    ]

    assert outcomes == ["failed", "committed", "committed", "committed"]
    with principal_context(owner):
        assert ConsolidationWatermark.objects.filter(session__in=good).count() == 3
    assert retry_of(other_owner, poison).attempts == 1


def test_operators_count_retrying_and_given_up_sessions_without_content(
    owner, other_owner, settings
):
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 1}
    closed_conversation(owner)
    sweep(failing, at=timezone.now() + IDLE)
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "retry_attempts": 5}
    closed_conversation(other_owner)
    sweep(failing, at=timezone.now() + IDLE)

    retries = formation_retries()
    assert (retries["retrying"], retries["given_up"]) == (1, 1)
    (given_up,) = retries["recent"]
    assert {key: given_up[key] for key in ("owner__username", "attempts", "error_class")} == {
        "owner__username": owner.username,
        "attempts": 1,
        "error_class": "ExtractorDown",
    }
    assert {field.name for field in FormationRetry._meta.concrete_fields} == {
        "id",
        "owner",
        "session",
        "attempts",
        "next_attempt_at",
        "gave_up_at",
        "error_class",
        "updated_at",
    }
    with principal_context(owner):
        assert FormationAudit.objects.filter(owner=owner, outcome="failed").count() == 1


def test_a_failure_that_cannot_be_recorded_leaves_the_session_due_and_the_sweep_going(
    owner, other_owner, monkeypatch
):
    broken = closed_conversation(other_owner, "boom")
    good = closed_conversation(owner)

    def script(request):
        if any("boom" in m.text for m in request.messages):
            raise ExtractorDown
        return owns_kindle(request)

    def unrecordable(*args):
        raise RuntimeError("database went away")

    monkeypatch.setattr(formation_services, "_record_failure", unrecordable)
    audits = sweep(script, at=timezone.now() + IDLE)

    assert [audit.outcome for audit in audits] == ["committed"]
    assert retry_of(other_owner, broken) is None
    assert due_ids(timezone.now() + IDLE) == {str(broken.public_id)}
    with principal_context(owner):
        assert ConsolidationWatermark.objects.filter(session=good).exists()


def test_a_sweep_past_its_deadline_leaves_the_remaining_sessions_for_the_next(owner, settings):
    settings.REVERIE_FORMATION = {**settings.REVERIE_FORMATION, "sweep_deadline_seconds": 0}
    first = closed_conversation(owner, "I own a kindle.")
    second = closed_conversation(owner, "I own a kindle too.")
    at = timezone.now() + IDLE

    (audit,) = sweep(owns_kindle, at=at)

    assert audit.session_id == first.pk
    assert due_ids(at) == {str(second.public_id)}
    (audit,) = sweep(owns_kindle, at=at)
    assert audit.session_id == second.pk
