"""Export everything, or erase the account."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from memory.models import Belief, Event, Session
from tests.memory.helpers import conversation, remember

from .conftest import THEIR_SECRET
from .helpers import owned, page_messages

pytestmark = pytest.mark.django_db

EXPORT = reverse("review:account_export")
ERASE = reverse("review:account_erase")


def test_the_account_page_offers_export_and_erasure(owner_client):
    body = owner_client.get(reverse("review:account")).content.decode()

    assert f'action="{EXPORT}"' in body
    assert f'href="{ERASE}"' in body


def test_the_export_downloads_only_the_owners_data_as_json(owner_client, owner, theirs):
    _, (message,) = conversation(owner, "I just got an Apple Watch.")
    remember(owner, "User owns an Apple Watch.", sources=[message])

    response = owner_client.post(EXPORT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="reverie-export-')
    export = json.loads(response.content)
    assert export["principal"]["username"] == "owner"
    assert [m["statement"] for m in export["memories"]] == ["User owns an Apple Watch."]
    assert export["sessions"][0]["events"][0]["parts"][0]["text"] == "I just got an Apple Watch."
    assert THEIR_SECRET not in response.content.decode()
    assert page_messages(owner_client.get(reverse("review:account"))) == [
        "Exported 1 conversation and 1 memory."
    ]


def test_the_export_answers_only_posts(owner_client):
    assert owner_client.get(EXPORT).status_code == 405


def test_the_erasure_page_says_it_cannot_be_undone(owner_client):
    body = owner_client.get(ERASE).content.decode()

    assert "This is irreversible." in body
    assert 'id="erase-form"' in body


def test_a_wrong_username_erases_nothing(owner_client, owner):
    remember(owner, "User owns an Apple Watch.")

    response = owner_client.post(ERASE, {"username": "someone"})

    assert response.status_code == 200
    assert page_messages(response) == ["Nothing was erased: the username did not match."]
    assert get_user_model().objects.filter(pk=owner.pk).exists()
    assert len(owned(owner)) == 1


def test_erasing_removes_the_account_and_everything_in_it(owner_client, owner, other_owner, theirs):
    conversation(owner, "I just got an Apple Watch.")
    remember(owner, "User owns an Apple Watch.")

    response = owner_client.post(ERASE, {"username": "owner"}, follow=True)

    assert not get_user_model().objects.filter(pk=owner.pk).exists()
    for model in (Belief, Session, Event):
        assert owned(owner, model) == []
    # Theirs stays: a memory, a session, its message and the formation flag it raised.
    assert [len(owned(other_owner, model)) for model in (Belief, Session, Event)] == [1, 1, 2]
    assert response.redirect_chain[-1][0] == reverse("review:login")
    assert page_messages(response) == [
        "Your account was erased, with every conversation and memory in it."
    ]
    assert "_auth_user_id" not in owner_client.session


def test_the_password_change_pages_keep_the_sites_navigation(client, owner):
    client.force_login(owner)

    for name in ("review:password_change", "review:password_change_done"):
        body = client.get(reverse(name)).content.decode()
        assert 'id="review-nav"' in body, name
