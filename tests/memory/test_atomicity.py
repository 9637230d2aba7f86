"""A service that fails halfway leaves nothing behind."""

import pytest

from common.principal import principal_context
from memory.models import Belief, BeliefSource, BeliefStatusCount, DeletionFence, Event
from memory.services import erasure, records
from memory.services.beliefs import belief_delete
from memory.services.erasure import session_erase

from .helpers import conversation, remember


class Boom(Exception):
    pass


def explode(*args, **kwargs):
    raise Boom


def test_a_remember_that_fails_before_its_audit_writes_nothing(owner, monkeypatch):
    _, (message,) = conversation(owner, "I keep bees.")
    monkeypatch.setattr(records.AuditRecord.objects, "bulk_create", explode)

    with pytest.raises(Boom):
        remember(owner, "User keeps bees.", sources=[message])

    with principal_context(owner):
        assert not Belief.objects.filter(owner=owner).exists()
        assert not BeliefSource.objects.filter(owner=owner).exists()
    assert not BeliefStatusCount.objects.filter(owner=owner).exclude(count=0).exists()


def test_a_delete_that_fails_halfway_keeps_the_text_and_adds_no_fence(owner, monkeypatch):
    _, (message,) = conversation(owner, "I keep bees.")
    belief = remember(owner, "User keeps bees.", sources=[message])
    monkeypatch.setattr(erasure, "set_status", explode)

    with pytest.raises(Boom):
        belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

    with principal_context(owner):
        kept = Belief.objects.get(pk=belief.pk)
        assert (kept.status, kept.statement) == ("active", "User keeps bees.")
        assert BeliefSource.objects.get(belief=belief).excerpt == "I keep bees."
        assert not DeletionFence.objects.filter(owner=owner).exists()


def test_a_session_erasure_that_fails_halfway_redacts_nothing(owner, monkeypatch):
    session, (message,) = conversation(owner, "I keep bees.")
    remember(owner, "User keeps bees.", sources=[message])
    monkeypatch.setattr(erasure, "session_close", explode)

    with pytest.raises(Boom):
        session_erase(principal=owner, session_id=session.public_id)

    with principal_context(owner):
        assert Event.objects.get(pk=message.pk).text == "I keep bees."
        assert Belief.objects.get(owner=owner).status == "active"
