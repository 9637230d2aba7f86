"""Short ways to build a conversation through the public services."""

from memory.enums import BeliefType, EventType
from memory.services.beliefs import belief_remember
from memory.services.sessions import event_append, session_create


def say(principal, session, text, *, event_type=EventType.USER_MESSAGE, **fields):
    return event_append(
        principal=principal,
        session_id=session.public_id,
        event_type=event_type,
        parts=[{"type": "text", "text": text}],
        **fields,
    )


def conversation(principal, *texts, **session_fields):
    session = session_create(principal=principal, **session_fields)
    return session, [say(principal, session, text) for text in texts]


def remember(principal, statement, *, sources=(), type=BeliefType.FACT, **fields):
    return belief_remember(
        principal=principal,
        statement=statement,
        type=type,
        source_event_ids=[event.public_id for event in sources],
        **fields,
    )
