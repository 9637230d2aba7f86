"""The event log is append-only, enforced by the database on both backends."""

import pytest
from django.db import DatabaseError, transaction

from common.principal import principal_context
from memory.models import Event
from memory.services.erasure import event_erase

from .helpers import conversation


@pytest.mark.parametrize(
    "change",
    [
        {"text": "rewritten history"},
        {"parts": [{"type": "text", "text": "rewritten"}]},
        {"sequence": 99},
        {"event_type": "assistant.message.created"},
        {"author_kind": "assistant"},
        {"external_id": "other"},
        {"payload": {"run_id": "forged"}},
        {"text": "", "parts": []},  # blanking without marking it as erasure
    ],
)
def test_an_event_cannot_be_changed_in_place(owner, change):
    _, (message,) = conversation(owner, "What I really said.")

    with principal_context(owner):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            Event.objects.filter(pk=message.pk).update(**change)
        unchanged = Event.objects.get(pk=message.pk)
    assert unchanged.text == "What I really said."
    assert unchanged.sequence == message.sequence


def test_erasure_is_the_one_change_allowed_and_only_once(owner):
    _, (message,) = conversation(owner, "Forget this.")
    event_erase(principal=owner, event_id=message.public_id)

    with principal_context(owner):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            Event.objects.filter(pk=message.pk).update(text="Back again.")
        assert Event.objects.get(pk=message.pk).text == ""


def test_every_trigger_survives_the_migrations(db):
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            expected = {
                f"{table}_fts_{kind}"
                for table in ("memory_belief", "memory_event")
                for kind in ("ai", "ad", "au")
            } | {"memory_event_append_only"}
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
            expected = {"memory_event_append_only"}
        assert expected <= {name for (name,) in cursor.fetchall()}
