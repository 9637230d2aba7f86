"""Who gets into the review site, and that each owner reaches only their own rows."""

import uuid

import pytest
from django.contrib import admin
from django.urls import reverse

from memory.enums import BeliefStatus
from memory.models import Belief, Event, Session
from memory.review.site import review_site
from tests.factories import UserFactory
from tests.memory.helpers import conversation, remember

from .conftest import THEIR_SECRET
from .helpers import memory_url, owned, reload, session_url

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def test_an_owner_who_is_not_staff_logs_in_with_the_form(client, owner):
    response = client.post(
        reverse("review:login"),
        {"username": "owner", "password": PASSWORD, "next": reverse("review:index")},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("review:index")
    assert client.get(reverse("review:index")).status_code == 200


def test_an_inactive_user_cannot_log_in(client):
    UserFactory(username="gone", is_active=False)

    response = client.post(reverse("review:login"), {"username": "gone", "password": PASSWORD})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_an_inactive_user_with_a_session_is_sent_to_the_login_page(client):
    client.force_login(UserFactory(username="gone", is_active=False))

    response = client.get(reverse("review:memory_belief_changelist"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("review:login"))


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    response = client.get(reverse("review:review_queue"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("review:login"))


def test_the_index_counts_only_the_owners_rows(owner_client, owner, theirs):
    conversation(owner, "I like tea.")
    remember(owner, "User likes tea.")

    response = owner_client.get(reverse("review:index"))

    assert response.context["memory_count"] == 1
    assert response.context["session_count"] == 1
    assert THEIR_SECRET not in response.content.decode()


def test_a_staff_operator_sees_only_their_own_memories_here(client, operator, theirs):
    remember(operator, "Operator likes coffee.")
    client.force_login(operator)

    body = client.get(reverse("review:memory_belief_changelist")).content.decode()

    assert "Operator likes coffee." in body
    assert THEIR_SECRET not in body


def test_the_review_site_passes_the_admin_checks_queue_included():
    assert review_site.check(None) == []
    assert review_site.queue_admin.model is Belief


def test_the_operator_admin_still_registers_no_model_holding_memory_text():
    for model in (Belief, Event, Session):
        assert not admin.site.is_registered(model)


def test_an_owner_signed_in_here_still_cannot_enter_the_operator_admin(owner_client):
    response = owner_client.get(reverse("admin:index"))

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def get_pages(belief, session):
    return [
        memory_url(belief),
        memory_url(belief, "history"),
        memory_url(belief, "delete"),
        memory_url(belief, "correct"),
        session_url(session),
    ]


def post_pages(belief):
    revision = {"expected_revision": belief.revision}
    return [
        (memory_url(belief), {"statement": "Changed through the form."}),
        (memory_url(belief, "confirm"), revision),
        (memory_url(belief, "reject"), revision),
        (memory_url(belief, "delete"), revision),
        (
            memory_url(belief, "correct"),
            {**revision, "statement": "Tampered.", "_confirm": "1"},
        ),
    ]


class Missing:
    """A row that does not exist: what another owner's row must look like."""

    def __init__(self):
        self.public_id = uuid.uuid4()
        self.revision = 1


def test_another_owners_ids_answer_404_exactly_like_missing_ones(owner_client, theirs):
    for theirs_url, missing_url in zip(
        get_pages(theirs["belief"], theirs["session"]),
        get_pages(Missing(), Missing()),
        strict=True,
    ):
        response = owner_client.get(theirs_url)
        assert response.status_code == 404, theirs_url
        assert owner_client.get(missing_url).status_code == 404, missing_url
        assert THEIR_SECRET not in response.content.decode()


def test_posting_to_another_owners_memory_answers_404_and_changes_nothing(
    owner_client, other_owner, theirs
):
    for url, data in post_pages(theirs["belief"]):
        response = owner_client.post(url, data)
        assert response.status_code == 404, url

    belief = reload(other_owner, theirs["belief"])
    assert (belief.status, belief.statement, belief.revision) == (
        BeliefStatus.ACTIVE,
        THEIR_SECRET,
        1,
    )
    assert owned(other_owner, supersedes=belief) == []


@pytest.mark.parametrize("object_id", ["1", "not-a-uuid", "%20"])
def test_database_keys_and_malformed_ids_answer_404(owner_client, owner, object_id):
    remember(owner, "User likes tea.")

    assert owner_client.get(f"/review/memory/belief/{object_id}/change/").status_code == 404
    assert owner_client.get(f"/review/memory/session/{object_id}/change/").status_code == 404


def test_the_queue_actions_ignore_another_owners_rows(owner_client, other_owner, theirs):
    response = owner_client.post(
        reverse("review:review_queue"),
        {"action": "reject_selected", "_selected_action": [theirs["belief"].pk]},
    )

    assert response.status_code in (200, 302)
    assert reload(other_owner, theirs["belief"]).status == BeliefStatus.ACTIVE
