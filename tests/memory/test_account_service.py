from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db.models import QuerySet
from django.utils import timezone

from core.errors import ReverieError
from memory.models import Belief, BeliefStatusCount, Event, Session
from memory.principal import principal_context
from memory.services import batches
from memory.services.account import (
    account_erase,
    account_erasure_request,
    account_export,
)
from memory.services.beliefs import belief_correct, belief_delete

from .helpers import conversation, remember


def test_the_export_holds_every_session_message_and_memory(owner, other_owner):
    session, (message,) = conversation(owner, "I keep bees in Porto.")
    belief = remember(owner, "User keeps bees.", sources=[message])
    belief_correct(
        principal=owner, belief_id=belief.public_id, expected_revision=1, statement="Two hives."
    )
    conversation(other_owner, "Not mine to export.")

    export = account_export(principal=owner)

    assert export["principal"]["id"] == str(owner.public_id)
    (exported_session,) = export["sessions"]
    assert exported_session["id"] == str(session.public_id)
    assert [(e["parts"], e["sensitivity"]) for e in exported_session["events"]] == [
        ([{"type": "text", "text": "I keep bees in Porto."}], "normal")
    ]
    assert [(m["statement"], m["status"]) for m in export["memories"]] == [
        ("User keeps bees.", "superseded"),
        ("Two hives.", "active"),
    ]
    assert export["memories"][0]["sources"] == [
        {"event_id": str(message.public_id), "excerpt": "I keep bees in Porto."}
    ]
    assert export["memories"][1]["supersedes"] == str(belief.public_id)


def test_erasing_an_account_removes_the_principal_and_everything_they_own(owner, other_owner):
    session, (message,) = conversation(owner, "I keep bees.")
    remember(owner, "User keeps bees.", sources=[message])
    deleted = remember(owner, "User hides a key.", sources=[message])
    belief_delete(principal=owner, belief_id=deleted.public_id, expected_revision=1)
    remember(owner, "User has a cold.", expires_at=timezone.now() + timedelta(days=1))
    theirs = remember(other_owner, "User likes tea.")
    token = account_erasure_request(principal=owner)["token"]

    counts = account_erase(principal=owner, token=token)

    assert counts["belief"] == 3 and counts["event"] == 1 and counts["session"] == 1
    assert not get_user_model().objects.filter(pk=owner.pk).exists()
    with principal_context(owner):
        for model in (Belief, Event, Session):
            assert not model.objects.filter(owner_id=owner.pk).exists()
    assert not BeliefStatusCount.objects.filter(owner_id=owner.pk).exists()
    with principal_context(other_owner):
        assert Belief.objects.get(pk=theirs.pk).statement == "User likes tea."


@pytest.mark.parametrize("token", ["", "forged", None])
def test_erasure_needs_a_valid_confirmation_token(owner, token):
    remember(owner, "User keeps bees.")

    with pytest.raises(ReverieError) as error:
        account_erase(principal=owner, token=token)

    assert error.value.code == "validation_error"
    assert get_user_model().objects.filter(pk=owner.pk).exists()


def test_another_principals_token_does_not_erase_this_account(owner, other_owner):
    token = account_erasure_request(principal=other_owner)["token"]

    with pytest.raises(ReverieError):
        account_erase(principal=owner, token=token)

    assert get_user_model().objects.filter(pk=owner.pk).exists()


def test_an_expired_token_is_a_conflict(owner, monkeypatch):
    token = account_erasure_request(principal=owner)["token"]

    def expired(*args, **kwargs):
        raise signing.SignatureExpired("expired")

    monkeypatch.setattr(signing.TimestampSigner, "unsign", expired)

    with pytest.raises(ReverieError) as error:
        account_erase(principal=owner, token=token)

    assert error.value.code == "conflict"
    assert get_user_model().objects.filter(pk=owner.pk).exists()


def test_a_bank_larger_than_one_delete_is_erased_batch_by_batch(owner, monkeypatch):
    # PostgreSQL takes at most 65,535 parameters per statement, and the cascade
    # collector names every row it deletes: a whole bank at once could not go.
    monkeypatch.setattr(batches, "PURGE_BATCH", 3)
    session, messages = conversation(owner, *[f"Message {n}." for n in range(7)])
    for number, message in enumerate(messages):
        remember(owner, f"User said {number}.", sources=[message])
    statements = []
    original = QuerySet.delete

    def counting_delete(queryset):
        statements.append(queryset.model._meta.model_name)
        return original(queryset)

    monkeypatch.setattr(QuerySet, "delete", counting_delete)
    token = account_erasure_request(principal=owner)["token"]

    counts = account_erase(principal=owner, token=token)

    assert counts["belief"] == 7 and counts["event"] == 7
    assert statements.count("belief") == 3  # 3 + 3 + 1
    assert not get_user_model().objects.filter(pk=owner.pk).exists()
