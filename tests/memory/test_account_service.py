from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from accounts.services import api_token_create
from common.principal import principal_context
from core.errors import ReverieError
from memory.models import AccessRecord, Belief, BeliefStatusCount, Event, Session
from memory.services import batches
from memory.services.access_log import access_record
from memory.services.account import (
    account_erase,
    account_erasure_request,
    account_export,
)
from memory.services.beliefs import belief_correct, belief_delete

from .helpers import conversation, remember, say


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
        ([{"type": "text", "text": "I keep bees in Porto."}], "normal"),
        ([], "normal"),  # the formation flag the message raised
    ]
    assert [(m["statement"], m["status"]) for m in export["memories"]] == [
        ("User keeps bees.", "superseded"),
        ("Two hives.", "active"),
    ]
    assert export["memories"][0]["sources"] == [
        {"event_id": str(message.public_id), "excerpt": "I keep bees in Porto."}
    ]
    assert export["memories"][1]["supersedes"] == str(belief.public_id)


def test_the_export_of_each_kind_has_exactly_these_fields_in_this_order(owner):
    session, (message,) = conversation(owner, "I keep bees in Porto.", external_id="chat-1")
    reply = say(owner, session, "Noted.", event_type="assistant.message.created")
    first = remember(owner, "User keeps bees.", sources=[message], subject="hobby:bees")
    second = belief_correct(
        principal=owner, belief_id=first.public_id, expected_revision=1, statement="Two hives."
    )
    token = api_token_create(principal=owner, name="desktop")[0]
    access_record(
        principal=owner,
        token=token,
        route="api:memories",
        request_id="r1",
        memories=[second.public_id],
        messages=[message.public_id],
    )

    export = account_export(principal=owner)

    with principal_context(owner):
        session = Session.objects.get(pk=session.pk)
        message, flag, reply = Event.objects.filter(session=session).order_by("sequence")
        first, second = Belief.objects.filter(pk__in=[first.pk, second.pk]).order_by("id")
        (record,) = AccessRecord.objects.filter(owner=owner)

    def event(event):
        return {
            "id": str(event.public_id),
            "sequence": event.sequence,
            "type": event.event_type,
            "author_kind": event.author_kind,
            "author_name": event.author_name,
            "parts": event.parts,
            "payload": event.payload,
            "external_id": event.external_id,
            "sensitivity": event.sensitivity,
            "occurred_at": event.occurred_at,
            "redacted_at": event.redacted_at,
        }

    def memory(belief, supersedes, sources):
        return {
            "id": str(belief.public_id),
            "type": belief.type,
            "subject": "hobby:bees",
            "statement": belief.statement,
            "polarity": belief.polarity,
            "authority": belief.authority,
            "status": belief.status,
            "needs_review": belief.needs_review,
            "confidence": belief.confidence,
            "scope": belief.scope,
            "portability": belief.portability,
            "sensitivity": belief.sensitivity,
            "valid_from": belief.valid_from,
            "valid_until": belief.valid_until,
            "expires_at": belief.expires_at,
            "supersedes": supersedes,
            "revision": belief.revision,
            "created_at": belief.created_at,
            "updated_at": belief.updated_at,
            "sources": sources,
        }

    expected = {
        "principal": {"id": str(owner.public_id), "username": owner.get_username()},
        "exported_at": export["exported_at"],
        "sessions": [
            {
                "id": str(session.public_id),
                "external_id": "chat-1",
                "scope": session.scope,
                "created_at": session.created_at,
                "last_activity_at": session.last_activity_at,
                "closed_at": session.closed_at,
                "erased_at": session.erased_at,
                "events": [event(message), event(flag), event(reply)],
            }
        ],
        "memories": [
            memory(
                first,
                None,
                [{"event_id": str(message.public_id), "excerpt": "I keep bees in Porto."}],
            ),
            memory(second, str(first.public_id), []),
        ],
        "access": [
            {
                "id": str(record.public_id),
                "token_id": str(token.public_id),
                "token_name": "desktop",
                "route": "api:memories",
                "request_id": "r1",
                "at": record.created_at,
                "memory_ids": [str(second.public_id)],
                "message_ids": [str(message.public_id)],
                "derived_ids": [],
            }
        ],
    }
    ours = {key: export[key] for key in expected}
    # Compared as the API sends it, so that the order of the fields counts too.
    assert JSONEncoder().encode(ours) == JSONEncoder().encode(expected)
    assert list(export)[: len(expected)] == list(expected)


def test_erasing_an_account_removes_the_principal_and_everything_they_own(owner, other_owner):
    session, (message,) = conversation(owner, "I keep bees.")
    remember(owner, "User keeps bees.", sources=[message])
    deleted = remember(owner, "User hides a key.", sources=[message])
    belief_delete(principal=owner, belief_id=deleted.public_id, expected_revision=1)
    remember(owner, "User has a cold.", expires_at=timezone.now() + timedelta(days=1))
    theirs = remember(other_owner, "User likes tea.")
    token = account_erasure_request(principal=owner)["token"]

    counts = account_erase(principal=owner, token=token)

    # The message and the formation flag it raised.
    assert counts["belief"] == 3 and counts["event"] == 2 and counts["session"] == 1
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

    assert counts["belief"] == 7 and counts["event"] == 8  # and the formation flag
    assert statements.count("belief") == 3  # 3 + 3 + 1
    assert not get_user_model().objects.filter(pk=owner.pk).exists()
