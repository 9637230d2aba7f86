"""Memories, recall and export, through the synchronous client."""

from datetime import UTC, datetime, timedelta

import pytest
from reverie_client import (
    ConflictError,
    History,
    Memory,
    MemoryPage,
    NotFoundError,
    Recall,
    ValidationError,
)
from support import unique


@pytest.fixture(scope="module")
def formed(service):
    """Provisional memories that formation made from a closed conversation of alice."""
    from reverie_client import ReverieClient

    with ReverieClient(service.url, token=service.token) as reverie:
        conversation = reverie.conversation(unique("formation"))
        conversation.record("I just bought a Kawasaki Ninja.", reply="Ride safe!")
        conversation.record("My sister is called Maren.")
        conversation.close()
        service.run_maintenance()
        memories = [
            memory
            for memory in reverie.iter_memories(status="provisional")
            if memory.sources and memory.sources[0].session_id == conversation.session.id
        ]
    assert len(memories) >= 2, memories
    return memories


def test_it_remembers_an_explicit_memory(client):
    memory = client.remember(
        "User prefers metric units.",
        type="preference",
        subject=f"pref:units-{unique('u')}",
        sensitivity="personal",
        expires_at=datetime.now(UTC) + timedelta(days=30),
    )
    assert isinstance(memory, Memory)
    assert (memory.status, memory.authority, memory.revision) == ("active", "explicit", 1)
    assert memory.sensitivity == "personal"
    assert memory.expires_at is not None
    assert client.memory_get(memory.id) == memory


def test_a_memory_can_cite_the_message_it_comes_from(client):
    session = client.session_create()
    event = client.event_append(session.id, "I water the plants on Sundays.")
    memory = client.remember("User waters the plants on Sundays.", source_event_ids=[event.id])
    assert [source.event_id for source in memory.sources] == [event.id]


def test_it_lists_memories_by_status_and_type(client):
    subject = f"pref:drink-{unique('d')}"
    memory = client.remember("User prefers green tea.", type="preference", subject=subject)
    page = client.memory_list(status="active", type=["preference"], limit=200)
    assert isinstance(page, MemoryPage)
    assert memory.id in {m.id for m in page.results}
    assert all(m.type == "preference" and m.status == "active" for m in page.results)
    assert memory.id in {m.id for m in client.iter_memories(type="preference", page_size=3)}
    assert memory.id not in {m.id for m in client.memory_list(needs_review=True).results}


def test_it_corrects_a_memory_into_a_new_one(client):
    old = client.remember("User lives in Lyon.", subject=f"place:home-{unique('h')}")
    new = client.memory_correct(
        old.id, expected_revision=old.revision, statement="User lives in Grenoble."
    )
    assert new.id != old.id
    assert new.supersedes == old.id
    assert client.memory_get(old.id).status == "superseded"
    history = client.memory_history(old.id)
    assert isinstance(history, History)
    assert {version.statement for version in history.versions} >= {
        "User lives in Lyon.",
        "User lives in Grenoble.",
    }
    assert history.changes


def test_a_stale_revision_is_a_conflict_naming_the_current_one(client):
    memory = client.remember("User cycles to work.", subject=f"habit:commute-{unique('c')}")
    with pytest.raises(ConflictError) as refused:
        client.memory_correct(
            memory.id, expected_revision=memory.revision + 1, statement="User drives to work."
        )
    assert refused.value.details["current_revision"] == memory.revision
    assert refused.value.request_id


def test_it_deletes_a_memory_leaving_a_tombstone(client):
    memory = client.remember("User's locker code is under the mat.", subject="topic:locker")
    deleted = client.memory_delete(memory.id, expected_revision=memory.revision)
    assert deleted.status == "deleted"
    assert deleted.statement == ""
    with pytest.raises(ConflictError):
        client.memory_delete(memory.id, expected_revision=deleted.revision)


def test_the_owner_confirms_and_rejects_formed_memories(client, formed):
    confirmed = client.memory_confirm(formed[0].id, expected_revision=formed[0].revision)
    assert confirmed.status == "active"
    rejected = client.memory_reject(formed[1].id, expected_revision=formed[1].revision)
    assert rejected.status == "rejected"


def test_recall_finds_memories_and_messages(client):
    subject = f"device:{unique('watch')}"
    memory = client.remember("User owns a Garmin Forerunner watch.", subject=subject)
    session = client.session_create()
    client.event_append(session.id, "My Garmin tracks my runs.")
    found = client.recall("garmin watch", include=["messages"], limit=10)
    assert isinstance(found, Recall)
    kinds = {(item.kind, item.id) for item in found.items}
    assert ("belief", memory.id) in kinds
    assert any(item.kind == "message" for item in found.items)
    only_beliefs = client.recall("garmin", types=["fact"], statuses=["active"], budget_chars=2000)
    assert all(item.kind == "belief" for item in only_beliefs.items)


def test_recall_gives_a_message_the_turns_around_it_as_context(client):
    trip = unique("kayaking")
    session = client.session_create()
    for text in ("We spoke of the weather.", f"Did you go {trip}?", "Yes, on the lake."):
        client.event_append(session.id, text)
    found = client.recall(trip, include=["messages"], limit=1, context_turns=1)
    (item,) = found.items
    assert item.text == f"Did you go {trip}?"
    assert [(turn.position, turn.text) for turn in item.context or []] == [
        ("before", "We spoke of the weather."),
        ("after", "Yes, on the lake."),
    ]
    assert client.recall(trip, include=["messages"], limit=1).items[0].context is None


def test_the_change_feed_returns_each_change_once_and_a_cursor(client):
    start = datetime.now(UTC) - timedelta(seconds=1)
    made = [client.remember(f"User collects {thing}.") for thing in ("stamps", "coins", "maps")]
    feed = client.memory_changes(start, page_size=2)
    changed = [memory.id for memory in feed]
    assert [memory.id for memory in made] == [i for i in changed if i in {m.id for m in made}]
    assert len(changed) == len(set(changed))
    assert feed.cursor
    page = client.memory_list(changed_since=start, limit=50)
    assert page.next_changed_since is not None


def test_export_holds_everything_of_the_owner(client):
    memory = client.remember("User's favourite colour is teal.", subject="pref:colour")
    exported = client.export()
    assert memory.id in str(exported)


def test_another_owners_memory_is_not_found(client, other_client):
    theirs = other_client.remember("User has a cat named Miso.")
    with pytest.raises(NotFoundError):
        client.memory_get(theirs.id)
    assert theirs.id not in {item.id for item in client.recall("cat Miso").items}


def test_a_secret_is_refused_with_its_reason(client):
    with pytest.raises(ValidationError) as refused:
        client.remember("User's password is hunter2-Secret!99")
    assert refused.value.details.get("reason") == "secret"
