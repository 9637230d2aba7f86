"""The owner's conversations, read-only, with their messages."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from formation.selectors import formation_due
from memory.enums import EventType
from memory.services.erasure import session_erase
from tests.memory.helpers import conversation, remember, say

from .conftest import THEIR_SECRET
from .helpers import (
    formation_given_up,
    memory_url,
    page_messages,
    retry_formation_url,
    session_url,
    waiting_retry,
)

pytestmark = pytest.mark.django_db

SESSIONS = reverse("review:memory_session_changelist")


def test_the_list_shows_the_owners_conversations_only(owner_client, owner, theirs):
    conversation(owner, "I just got an Apple Watch.", "It is blue.")

    response = owner_client.get(SESSIONS)

    body = response.content.decode()
    assert [s.messages for s in response.context["cl"].result_list] == [2]
    assert "I just got an Apple Watch." in body
    assert THEIR_SECRET not in body


def test_a_conversation_shows_its_messages_and_the_memories_formed_from_it(owner_client, owner):
    session, (message,) = conversation(owner, "I just got an Apple Watch.")
    say(owner, session, "Nice! Blue or black?", event_type=EventType.ASSISTANT_MESSAGE)
    belief = remember(owner, "User owns an Apple Watch.", sources=[message])

    response = owner_client.get(session_url(session))

    body = response.content.decode()
    assert response.status_code == 200
    assert "I just got an Apple Watch." in body
    assert "Nice! Blue or black?" in body
    assert f'href="{memory_url(belief)}"' in body
    assert [line["author"] for line in response.context["chat"]] == ["You", "Assistant"]


def test_an_erased_conversation_shows_no_text(owner_client, owner):
    session, _ = conversation(owner, "My PIN is 1234.")
    session_erase(principal=owner, session_id=session.public_id)

    listing = owner_client.get(SESSIONS).content.decode()
    page = owner_client.get(session_url(session)).content.decode()

    assert "1234" not in listing
    assert "1234" not in page
    assert "This conversation was erased" in page


def test_conversations_cannot_be_changed_added_or_deleted(owner_client, owner):
    session, _ = conversation(owner, "I just got an Apple Watch.")

    assert owner_client.post(session_url(session), {"scope": "assistant:x"}).status_code == 403
    assert owner_client.get(reverse("review:memory_session_add")).status_code == 403
    delete = reverse("review:memory_session_delete", args=[session.public_id])
    assert owner_client.post(delete).status_code == 404
    assert owner_client.get(session_url(session)).status_code == 200


def test_a_conversation_formation_gave_up_on_says_so_and_offers_a_retry(
    owner_client, owner, settings
):
    session = formation_given_up(owner, settings)

    listing = owner_client.get(SESSIONS).content.decode()
    page = owner_client.get(session_url(session)).content.decode()

    assert "closed; memories could not be formed" in listing
    assert "Memories from this conversation could not be formed" in page
    assert f'action="{retry_formation_url(session)}"' in page


def test_the_owners_retry_puts_the_conversation_back_for_formation(owner_client, owner, settings):
    session = formation_given_up(owner, settings)

    response = owner_client.post(retry_formation_url(session), follow=True)

    assert "Reverie will try again" in page_messages(response)[0]
    assert waiting_retry(owner, session) is None
    assert "could not be formed" not in response.content.decode()
    due = formation_due(now=timezone.now() + timedelta(seconds=31))
    assert [str(d.session_public_id) for d in due] == [str(session.public_id)]


def test_a_retry_is_post_only_and_another_owners_conversation_is_not_found(
    owner_client, owner, other_owner, settings
):
    theirs = formation_given_up(other_owner, settings)
    mine = formation_given_up(owner, settings)

    assert owner_client.get(retry_formation_url(mine)).status_code == 405
    assert owner_client.post(retry_formation_url(theirs)).status_code == 404
    assert waiting_retry(other_owner, theirs).gave_up_at is not None


def test_a_message_labelled_sensitive_says_so_to_its_owner(owner_client, owner):
    session, _ = conversation(owner, "My therapist moved our session to Friday.")
    say(owner, session, "I will bring the blue folder.")

    page = owner_client.get(session_url(session)).content.decode()

    assert page.count('class="when sensitivity"') == 1
