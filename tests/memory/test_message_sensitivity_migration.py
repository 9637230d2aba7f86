"""Migration 0021 gives every existing message the label its text implies, for every
principal; erased messages and system events stay ordinary."""

import pytest
from django.utils import timezone

from common.principal import principal_context
from memory.models import Event
from tests.migrations import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("memory", "0020_session_external_id_per_scope")]
AFTER = [("memory", "0021_message_sensitivity")]


def log_written(apps, principal, entries):
    """A session and its events as the code before 0021 wrote them: (type, text, erased)."""
    Session = apps.get_model("memory", "Session")
    Event = apps.get_model("memory", "Event")
    now = timezone.now()
    with principal_context(principal):
        session = Session.objects.create(
            owner_id=principal.pk, last_activity_at=now, last_sequence=len(entries)
        )
        return [
            Event.objects.create(
                owner_id=principal.pk,
                session=session,
                sequence=sequence,
                event_type=event_type,
                author_kind="system" if event_type == "session.closed" else "principal",
                parts=[{"type": "text", "text": text}] if text else [],
                text=text,
                occurred_at=now,
                redacted_at=now if erased else None,
            ).public_id
            for sequence, (event_type, text, erased) in enumerate(entries, start=1)
        ]


def test_existing_messages_are_labelled_by_their_text_for_every_principal(owner, other_owner):
    said = "user.message.created"
    entries = {
        owner: [
            (said, "My therapist says the anxiety will ease by spring.", False),
            ("assistant.message.created", "Your sister's birthday is on Friday.", False),
            (said, "I bought a blue bike.", False),
            (said, "", True),
            ("session.closed", "", False),
        ],
        other_owner: [("participant.message.created", "We voted yesterday.", False)],
    }
    try:
        apps = migrate(BEFORE)
        written = {p: log_written(apps, p, entries[p]) for p in entries}

        migrate(AFTER)

        labels = {}
        for principal, ids in written.items():
            with principal_context(principal):
                by_id = dict(
                    Event.objects.filter(owner=principal).values_list("public_id", "sensitivity")
                )
            labels[principal] = [by_id[public_id] for public_id in ids]
        assert labels == {
            owner: ["sensitive", "personal", "normal", "normal", "normal"],
            other_owner: ["sensitive"],
        }
    finally:
        migrate(latest())
