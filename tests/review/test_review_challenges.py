"""Memories that may have changed, on the review site: both sides with their sources, and
the owner's keep or replace."""

import pytest
from django.test import Client
from django.urls import reverse

from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.models import Challenge
from formation.services import formation_consolidate
from memory.enums import BeliefType
from memory.models import Belief
from tests.conftest import PROXIED_HTTPS
from tests.memory.helpers import conversation, remember

from .helpers import page_messages

LIST = reverse("review:formation_challenge_changelist")
BMW = "User owns a BMW X3."
SOLD = "User no longer owns a BMW X3."


@pytest.fixture
def challenge(owner):
    stated = remember(owner, BMW, subject="vehicle:bmw-x3", type=BeliefType.OWNERSHIP)
    session, _ = conversation(owner, "I sold the BMW X3 to my neighbour.")
    formation_consolidate(
        principal=owner, session_id=session.public_id, extractor=DeterministicExtractor()
    )
    with principal_context(owner):
        return Challenge.objects.get(owner=owner, standing=stated)


def url(challenge, decision=None):
    if decision is None:
        return reverse("review:formation_challenge_change", args=[challenge.public_id])
    return reverse("review:formation_challenge_decide", args=[challenge.public_id, decision])


def text(response):
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_the_home_page_and_the_list_show_what_waits(owner_client, challenge):
    home = text(owner_client.get(reverse("review:index")))
    listed = text(owner_client.get(LIST))

    assert "may have changed" in home and LIST in home
    assert BMW in listed and SOLD in listed
    assert url(challenge) in listed
    # The state in the owner's words, never the stored code.
    assert '<td class="field-decision">Waiting for you</td>' in listed


def test_the_page_shows_both_sides_with_their_sources(owner_client, challenge):
    page = text(owner_client.get(url(challenge)))

    assert "This may have changed" in page
    assert BMW in page and SOLD in page
    assert "I sold the BMW X3 to my neighbour." in page
    assert url(challenge, "keep") in page and url(challenge, "replace") in page


def test_keeping_closes_it_and_leaves_the_memory(owner_client, owner, challenge):
    response = owner_client.post(url(challenge, "keep"), follow=True)

    assert any("Kept" in message for message in page_messages(response))
    with principal_context(owner):
        challenge.refresh_from_db()
        assert challenge.state == "kept"
        assert Belief.objects.get(pk=challenge.standing_id).status == "active"
    assert SOLD not in text(owner_client.get(LIST))


def test_replacing_makes_the_proposal_the_owners_memory(owner_client, owner, challenge):
    response = owner_client.post(url(challenge, "replace"), follow=True)

    assert any("Replaced" in message for message in page_messages(response))
    with principal_context(owner):
        challenge.refresh_from_db()
        assert challenge.state == "replaced"
        assert Belief.objects.get(pk=challenge.standing_id).status == "retracted"
        new = Belief.objects.get(pk=challenge.replacement_id)
    assert (new.statement, new.authority, new.status) == (SOLD, "explicit", "active")


def test_a_decision_is_a_post(owner_client, owner, challenge):
    assert owner_client.get(url(challenge, "replace")).status_code == 405
    with principal_context(owner):
        challenge.refresh_from_db()
    assert challenge.state == "open"


def test_another_owner_gets_a_404_and_changes_nothing(other_owner, owner, challenge):
    other = Client(**PROXIED_HTTPS)
    other.force_login(other_owner)

    assert other.get(url(challenge)).status_code == 404
    assert other.post(url(challenge, "replace")).status_code == 404
    assert SOLD not in text(other.get(LIST))
    with principal_context(owner):
        challenge.refresh_from_db()
    assert challenge.state == "open"
