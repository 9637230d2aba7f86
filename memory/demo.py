"""A demo owner, a demo operator and a short conversation with a few memories.

For trying Reverie on a laptop; the credentials are public, so never run this
against a deployment that others can reach.
"""

from dataclasses import dataclass
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import User
from accounts.operators import operator_grant
from accounts.selectors import api_token_list
from accounts.services import api_token_create, api_token_revoke
from common.principal import principal_context
from memory.enums import BeliefType, EventType
from memory.models import Event, Session
from memory.services.beliefs import belief_remember
from memory.services.sessions import event_append, run_complete, run_create, session_create

OWNER = ("demo", "demo-owner-password")
DEMO_TOKEN_NAME = "demo runtime"
OPERATOR = ("operator", "demo-operator-password")


@dataclass(frozen=True)
class DemoConversation:
    external_id: str
    # (message external id, event type, text)
    messages: list[tuple[str, str, str]]
    # (message external id, type, subject, statement)
    memories: list[tuple[str, str, str, str]]


DEMO_SESSION = "demo-welcome"
CONVERSATIONS = [
    DemoConversation(
        external_id=DEMO_SESSION,
        messages=[
            ("demo-1", EventType.USER_MESSAGE, "I just got an Apple Watch and I drive a BMW X3."),
            (
                "demo-2",
                EventType.ASSISTANT_MESSAGE,
                "Nice! Do you want workout reminders on the watch?",
            ),
            (
                "demo-3",
                EventType.USER_MESSAGE,
                "Yes please. And keep your answers short, I prefer that.",
            ),
            ("demo-4", EventType.USER_MESSAGE, "Remember that my sister Ana lives in Lisbon."),
            ("demo-5", EventType.USER_MESSAGE, "Oh, and please use metric units."),
        ],
        memories=[
            ("demo-1", BeliefType.OWNERSHIP, "device:apple-watch", "User owns an Apple Watch."),
            ("demo-1", BeliefType.OWNERSHIP, "vehicle:bmw-x3", "User drives a BMW X3."),
            ("demo-3", BeliefType.PREFERENCE, "pref:answer-style", "User prefers short answers."),
            ("demo-4", BeliefType.RELATIONSHIP, "person:ana", "User's sister Ana lives in Lisbon."),
            ("demo-5", BeliefType.PREFERENCE, "pref:units", "User prefers metric units."),
        ],
    ),
    # A later conversation that gives reconsolidation something of every kind to do: the
    # same preference again (a merge), two more claims about Ana (a summary), the watch
    # on runs (a tentative connection) and imperial units (a possible contradiction).
    DemoConversation(
        external_id="demo-later",
        messages=[
            (
                "later-1",
                EventType.USER_MESSAGE,
                "I run with my Apple Watch every morning before work.",
            ),
            ("later-2", EventType.USER_MESSAGE, "Short answers, please: I prefer them."),
            ("later-3", EventType.USER_MESSAGE, "Ana works as a nurse now, and she has two kids."),
            ("later-4", EventType.USER_MESSAGE, "For running I think in miles, imperial units."),
        ],
        memories=[
            ("later-1", BeliefType.FACT, "topic:running", "User runs with the Apple Watch."),
            (
                "later-2",
                BeliefType.PREFERENCE,
                "pref:answer-style",
                "User prefers the short answers.",
            ),
            ("later-3", BeliefType.FACT, "person:ana", "Ana works as a nurse."),
            ("later-3", BeliefType.FACT, "person:ana", "Ana has two kids."),
            ("later-4", BeliefType.PREFERENCE, "pref:units", "User prefers imperial units."),
        ],
    ),
]


def _account(username: str, password: str, **flags: bool) -> User:
    user, _ = get_user_model().objects.get_or_create(username=username, defaults=flags)
    for name, value in flags.items():
        setattr(user, name, value)
    user.set_password(password)
    user.save()
    return user


def _demo_conversation(owner: User, conversation: DemoConversation) -> Session:
    session = session_create(principal=owner, external_id=conversation.external_id)
    events: dict[str, Event] = {}
    for external_id, event_type, text in conversation.messages:
        events[external_id] = event_append(
            principal=owner,
            session_id=session.public_id,
            event_type=event_type,
            parts=[{"type": "text", "text": text}],
            external_id=external_id,
        )
    run = run_create(principal=owner, session_id=session.public_id)
    run_complete(principal=owner, run_id=run.public_id)
    for external_id, belief_type, subject, statement in conversation.memories:
        belief_remember(
            principal=owner,
            statement=statement,
            type=belief_type,
            subject=subject,
            source_event_ids=[events[external_id].public_id],
        )
    return session


class DemoSeed(TypedDict):
    """The demo's public credentials ((username, password) each), its first conversation and
    a fresh API token's secret."""

    owner: tuple[str, str]
    operator: tuple[str, str]
    session: Session
    token: str


@transaction.atomic
def demo_seed() -> DemoSeed:
    """Create (or reset) the demo accounts and conversation; running it again adds nothing."""
    owner = _account(*OWNER, is_active=True)
    # An operator, not a superuser: the operator role's permissions only.
    operator_grant(user=_account(*OPERATOR, is_active=True, is_superuser=False))
    with principal_context(owner):
        for conversation in CONVERSATIONS:
            if not Session.objects.filter(
                owner=owner, external_id=conversation.external_id
            ).exists():
                # Only once each: later runs leave whatever the owner has since
                # done to the demo (confirmed, corrected, erased) as it is.
                _demo_conversation(owner, conversation)
        session = Session.objects.get(owner=owner, external_id=DEMO_SESSION)
    # A fresh demo token each time: secrets are not stored, so the previous one
    # could not be printed again.
    for token in api_token_list(principal=owner):
        if token.name == DEMO_TOKEN_NAME:
            api_token_revoke(token_id=token.public_id)
    _, secret = api_token_create(principal=owner, name=DEMO_TOKEN_NAME)
    return {"owner": OWNER, "operator": OPERATOR, "session": session, "token": secret}
