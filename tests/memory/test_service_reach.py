"""The write services enforce the caller's reach themselves, whatever surface calls them:
its scope, its read-only mode and its distance from sensitive memories."""

import pytest

from core.errors import ReverieError
from memory.enums import EventType
from memory.reach import Reach
from memory.services.beliefs import belief_correct, belief_remember
from memory.services.erasure import event_erase, session_erase
from memory.services.sessions import event_append, run_create, session_close, session_create

from .helpers import conversation, remember

IDE = Reach(scopes=("principal", "assistant:ide"))
READ_ONLY = Reach(read_only=True)
DISCREET = Reach(include_sensitive=False)


def refused(call):
    with pytest.raises(ReverieError) as error:
        call()
    return error.value.code


def test_a_source_outside_the_scope_is_not_found_as_a_missing_one_is(owner):
    _, (chat,) = conversation(owner, "My codename is BLUEHERON.", scope="assistant:chat")

    with pytest.raises(ReverieError) as error:
        belief_remember(
            principal=owner,
            statement="User has a codename.",
            source_event_ids=[chat.public_id],
            reach=IDE,
        )

    assert (error.value.code, error.value.details["missing"]) == (
        "not_found",
        [str(chat.public_id)],
    )


def test_writes_land_in_the_access_own_scope_and_only_in_scopes_it_reaches(owner):
    assert belief_remember(principal=owner, statement="User likes tea.", reach=IDE).scope == (
        "assistant:ide"
    )
    assert session_create(principal=owner, reach=IDE).scope == "assistant:ide"
    assert (
        refused(lambda: session_create(principal=owner, scope="assistant:chat", reach=IDE))
        == "forbidden"
    )


def test_another_assistants_conversation_is_not_found_to_every_write(owner):
    session, (message,) = conversation(owner, "Call mum.", scope="assistant:chat")
    session_id = session.public_id

    codes = [
        refused(call)
        for call in (
            lambda: event_append(
                principal=owner,
                session_id=session_id,
                event_type=EventType.USER_MESSAGE,
                parts=[{"text": "hi"}],
                reach=IDE,
            ),
            lambda: run_create(principal=owner, session_id=session_id, reach=IDE),
            lambda: session_close(principal=owner, session_id=session_id, reach=IDE),
            lambda: session_erase(principal=owner, session_id=session_id, reach=IDE),
            lambda: event_erase(principal=owner, event_id=message.public_id, reach=IDE),
        )
    ]

    assert codes == ["not_found"] * 5


def test_a_read_only_access_writes_nothing(owner):
    session, _ = conversation(owner, "Hello.")

    codes = [
        refused(call)
        for call in (
            lambda: belief_remember(principal=owner, statement="x", reach=READ_ONLY),
            lambda: session_create(principal=owner, reach=READ_ONLY),
            lambda: run_create(principal=owner, session_id=session.public_id, reach=READ_ONLY),
        )
    ]

    assert codes == ["forbidden"] * 3


def test_an_access_kept_from_sensitive_memories_neither_finds_nor_makes_one(owner):
    sensitive = remember(owner, "User has asthma.", sensitivity="sensitive")
    plain = remember(owner, "User likes tea.")

    codes = [
        refused(
            lambda: belief_correct(
                principal=owner,
                belief_id=sensitive.public_id,
                expected_revision=1,
                statement="User had asthma.",
                reach=DISCREET,
            )
        ),
        refused(
            lambda: belief_correct(
                principal=owner,
                belief_id=plain.public_id,
                expected_revision=1,
                statement="User likes green tea.",
                sensitivity="sensitive",
                reach=DISCREET,
            )
        ),
    ]

    assert codes == ["not_found", "forbidden"]
