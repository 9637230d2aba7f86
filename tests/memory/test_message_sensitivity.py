"""Messages carry a sensitivity label read from their text when they are appended, and a
reach kept from sensitive things reads no sensitive message: not in recall, not in a
session's log, not by its id, not as the source of a memory."""

import uuid

import pytest

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import MESSAGE_EVENT_TYPES, EventType
from memory.models import Event
from memory.reach import Reach
from memory.selectors.beliefs import belief_detail, belief_history
from memory.selectors.recall import recall
from memory.selectors.sessions import event_get, event_list
from memory.services.beliefs import belief_remember
from memory.services.erasure import event_erase, session_erase
from memory.services.sessions import event_append, run_complete, run_create, session_close

from .helpers import conversation, remember, say

DISCREET = Reach(include_sensitive=False)
# What classify_sensitivity reads as a health matter, a family detail, and neither.
SENSITIVE = "My therapist says the anxiety will ease by spring."
PERSONAL = "My sister is visiting in spring."
ORDINARY = "I bought a blue bike for the spring."


@pytest.fixture
def talk(owner):
    session, (sensitive, personal, ordinary) = conversation(owner, SENSITIVE, PERSONAL, ORDINARY)
    memory = remember(
        owner, "User is hopeful about the season.", sources=[sensitive, personal, ordinary]
    )
    return {
        "session": session,
        "sensitive": sensitive,
        "personal": personal,
        "ordinary": ordinary,
        "memory": memory,
    }


def ids(events):
    return [str(event.public_id) for event in events]


def messages(events):
    """The messages of a log, without its system events (the formation flag, here)."""
    return [event for event in events if event.event_type in MESSAGE_EVENT_TYPES]


def test_a_message_is_labelled_by_its_text_when_appended(owner, talk):
    reply = say(owner, talk["session"], "Noted.", event_type=EventType.ASSISTANT_MESSAGE)
    with principal_context(owner):
        labels = dict(Event.objects.values_list("public_id", "sensitivity"))

    assert [labels[talk[k].public_id] for k in ("sensitive", "personal", "ordinary")] == [
        "sensitive",
        "personal",
        "normal",
    ]
    assert (talk["sensitive"].sensitivity, labels[reply.public_id]) == ("sensitive", "normal")


def test_every_part_of_a_message_counts_captions_included(owner):
    session, _ = conversation(owner, "hello")

    event = event_append(
        principal=owner,
        session_id=session.public_id,
        event_type=EventType.USER_MESSAGE,
        parts=[
            {"type": "text", "text": "Here it is."},
            {"type": "caption", "text": "my diagnosis"},
        ],
    )

    assert event.sensitivity == "sensitive"


def test_system_events_are_ordinary(owner):
    session, _ = conversation(owner, SENSITIVE)
    run = run_create(principal=owner, session_id=session.public_id)
    run_complete(principal=owner, run_id=run.public_id)
    session_close(principal=owner, session_id=session.public_id)

    with principal_context(owner):
        system = Event.objects.exclude(event_type=EventType.USER_MESSAGE)
        assert sorted(set(system.values_list("sensitivity", flat=True))) == ["normal"]
        # The message's formation flag, the run's end, the close and its flag (the run's
        # own flag comes after commit, which this test's transaction never reaches).
        assert system.count() == 4


def test_an_access_kept_from_sensitive_things_lists_and_gets_no_sensitive_message(owner, talk):
    with principal_context(owner):
        listed = ids(
            messages(
                event_list(principal=owner, session_id=talk["session"].public_id, reach=DISCREET)
            )
        )
        with pytest.raises(ReverieError) as hidden:
            event_get(principal=owner, event_id=talk["sensitive"].public_id, reach=DISCREET)
        with pytest.raises(ReverieError) as missing:
            event_get(principal=owner, event_id=uuid.uuid4(), reach=DISCREET)

    assert listed == ids([talk["personal"], talk["ordinary"]])
    assert (hidden.value.code, hidden.value.message) == (missing.value.code, missing.value.message)
    assert hidden.value.code == "not_found"


def test_full_reach_lists_and_gets_every_message_with_its_label(owner, talk):
    with principal_context(owner):
        listed = messages(event_list(principal=owner, session_id=talk["session"].public_id))
        labels = [event.sensitivity for event in listed]
        got = event_get(principal=owner, event_id=talk["sensitive"].public_id)

    assert labels == ["sensitive", "personal", "normal"]
    assert got.text == SENSITIVE


def test_recall_of_messages_leaves_sensitive_ones_out_for_such_an_access(owner, talk):
    def messages(reach=None):
        options = {} if reach is None else {"reach": reach}
        result = recall(principal=owner, query="spring", include=["messages"], **options)
        return sorted(item.id for item in result.items if item.kind == "message")

    assert messages(DISCREET) == sorted(ids([talk["personal"], talk["ordinary"]]))
    assert messages() == sorted(ids([talk["sensitive"], talk["personal"], talk["ordinary"]]))


def test_a_hidden_message_takes_no_place_of_one_shown(owner):
    # More sensitive matches than recall fetches: filtered after the search, they would
    # fill every place and leave the ordinary message out.
    session, _ = conversation(owner, *[f"Therapy {n} in spring." for n in range(12)])
    ordinary = say(
        owner,
        session,
        "On a long, slow afternoon we walked all the way round the park; it felt like spring.",
    )

    result = recall(principal=owner, query="spring", include=["messages"], limit=3, reach=DISCREET)

    assert [item.id for item in result.items if item.kind == "message"] == ids([ordinary])


def test_a_memorys_sources_leave_its_sensitive_messages_out_for_such_an_access(owner, talk):
    memory_id = talk["memory"].public_id
    shown = ids([talk["personal"], talk["ordinary"]])

    with principal_context(owner):
        detail = belief_detail(principal=owner, belief_id=memory_id, reach=DISCREET)
        detailed = ids(source.event for source in detail.sources.all())
        history = belief_history(principal=owner, belief_id=memory_id, reach=DISCREET)
        versions = [ids(s.event for s in v.sources.all()) for v in history["versions"]]
        full = belief_detail(principal=owner, belief_id=memory_id).sources.count()
    (recalled,) = recall(principal=owner, query="hopeful", reach=DISCREET).items

    assert (detailed, versions) == (shown, [shown])
    assert [source.event_id for source in recalled.sources] == shown
    assert "therapist" not in str([source.excerpt for source in recalled.sources])
    assert full == 3


def test_a_sensitive_source_is_not_found_as_a_missing_one_is(owner, talk):
    def missing(source_event_ids):
        with pytest.raises(ReverieError) as error:
            belief_remember(
                principal=owner,
                statement="User keeps a weekly appointment.",
                source_event_ids=source_event_ids,
                reach=DISCREET,
            )
        return error.value

    hidden = missing([talk["ordinary"].public_id, talk["sensitive"].public_id])
    absent_id = uuid.uuid4()
    absent = missing([talk["ordinary"].public_id, absent_id])

    assert (hidden.code, hidden.message, hidden.details) == (
        absent.code,
        absent.message,
        {**absent.details, "missing": [str(talk["sensitive"].public_id)]},
    )
    assert hidden.code == "not_found"
    made = remember(owner, "User sees a therapist.", sources=[talk["sensitive"]])
    with principal_context(owner):
        assert made.sources.count() == 1


def test_a_sensitive_message_cannot_be_erased_by_such_an_access(owner, talk):
    with pytest.raises(ReverieError) as error:
        event_erase(principal=owner, event_id=talk["sensitive"].public_id, reach=DISCREET)

    assert error.value.code == "not_found"
    with principal_context(owner):
        assert Event.objects.get(pk=talk["sensitive"].pk).text == SENSITIVE


def test_erasure_takes_the_label_with_the_text(owner, talk):
    event_erase(principal=owner, event_id=talk["sensitive"].public_id)
    session, _ = conversation(owner, "I voted early.")
    session_erase(principal=owner, session_id=session.public_id)

    with principal_context(owner):
        erased = Event.objects.filter(redacted_at__isnull=False)
        assert list(erased.values_list("text", "sensitivity")) == [("", "normal")] * 2
