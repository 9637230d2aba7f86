"""A demo owner, a demo operator and a short conversation with a few memories.

For trying Reverie on a laptop; the credentials are public, so never run this
against a deployment that others can reach.
"""

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.selectors import api_token_list
from accounts.services import api_token_create, api_token_revoke
from memory.enums import BeliefType, EventType
from memory.models import Session
from memory.principal import principal_context
from memory.services.beliefs import belief_remember
from memory.services.sessions import event_append, run_complete, run_create, session_create

OWNER = ("demo", "demo-owner-password")
DEMO_TOKEN_NAME = "demo runtime"
DEMO_SESSION = "demo-welcome"
OPERATOR = ("operator", "demo-operator-password")

CONVERSATION = [
    ("demo-1", EventType.USER_MESSAGE, "I just got an Apple Watch and I drive a BMW X3."),
    ("demo-2", EventType.ASSISTANT_MESSAGE, "Nice! Do you want workout reminders on the watch?"),
    ("demo-3", EventType.USER_MESSAGE, "Yes please. And keep your answers short, I prefer that."),
    ("demo-4", EventType.USER_MESSAGE, "Remember that my sister Ana lives in Lisbon."),
]

MEMORIES = [
    ("demo-1", BeliefType.OWNERSHIP, "device:apple-watch", "User owns an Apple Watch."),
    ("demo-1", BeliefType.OWNERSHIP, "vehicle:bmw-x3", "User drives a BMW X3."),
    ("demo-3", BeliefType.PREFERENCE, "pref:answer-style", "User prefers short answers."),
    ("demo-4", BeliefType.RELATIONSHIP, "person:ana", "User's sister Ana lives in Lisbon."),
]


def _account(username, password, **flags):
    user, _ = get_user_model().objects.get_or_create(username=username, defaults=flags)
    for name, value in flags.items():
        setattr(user, name, value)
    user.set_password(password)
    user.save()
    return user


def _demo_conversation(owner):
    session = session_create(principal=owner, external_id=DEMO_SESSION)
    events = {}
    for external_id, event_type, text in CONVERSATION:
        events[external_id] = event_append(
            principal=owner,
            session_id=session.public_id,
            event_type=event_type,
            parts=[{"type": "text", "text": text}],
            external_id=external_id,
        )
    run = run_create(principal=owner, session_id=session.public_id)
    run_complete(principal=owner, run_id=run.public_id)
    for external_id, belief_type, subject, statement in MEMORIES:
        belief_remember(
            principal=owner,
            statement=statement,
            type=belief_type,
            subject=subject,
            source_event_ids=[events[external_id].public_id],
        )
    return session


@transaction.atomic
def demo_seed():
    """Create (or reset) the demo accounts and conversation; running it again adds nothing."""
    owner = _account(*OWNER, is_active=True)
    _account(*OPERATOR, is_active=True, is_staff=True, is_superuser=True)
    with principal_context(owner):
        session = Session.objects.filter(owner=owner, external_id=DEMO_SESSION).first()
        if session is None:
            # Only on the first run: later runs leave whatever the owner has
            # since done to the demo (confirmed, corrected, erased) as it is.
            session = _demo_conversation(owner)
    # A fresh demo token each time: secrets are not stored, so the previous one
    # could not be printed again.
    for token in api_token_list(principal=owner):
        if token.name == DEMO_TOKEN_NAME:
            api_token_revoke(token_id=token.public_id)
    _, secret = api_token_create(principal=owner, name=DEMO_TOKEN_NAME)
    return {"owner": OWNER, "operator": OPERATOR, "session": session, "token": secret}
