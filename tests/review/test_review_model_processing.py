"""The owner sees whether Reverie may use a language model on their data, and opts out or in."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import OperatorAction
from accounts.selectors import model_processing_allowed
from accounts.services import model_processing_set
from tests.conftest import PROXIED_HTTPS

from .helpers import page_messages

pytestmark = pytest.mark.django_db

PAGE = reverse("review:account_model_processing")
SET = reverse("review:account_model_processing_set")
OPTED_OUT = "Reverie never sends your conversations or memories to a language model."


def changes(principal):
    return OperatorAction.objects.filter(principal=principal).count()


def test_the_account_page_links_to_the_choice_and_says_what_it_is(owner_client, owner):
    allowed = owner_client.get(reverse("review:account")).content.decode()
    model_processing_set(principal=owner, allowed=False)
    opted_out = owner_client.get(reverse("review:account")).content.decode()

    assert f'href="{PAGE}"' in allowed
    assert "only if the operator" in allowed and OPTED_OUT not in allowed
    assert OPTED_OUT in opted_out


def test_the_page_says_what_allowed_means(owner_client):
    body = owner_client.get(PAGE).content.decode()

    assert "Model processing is allowed." in body
    assert "only if the operator of this Reverie has switched" in body
    assert "certified capability" in body
    assert "Memories marked sensitive and memories kept local-only are never sent." in body
    assert 'value="opt_out"' in body and f'action="{SET}"' in body
    assert OPTED_OUT not in body


def test_the_page_says_what_opting_out_means(owner_client, owner):
    model_processing_set(principal=owner, allowed=False)

    body = owner_client.get(PAGE).content.decode()

    assert OPTED_OUT in body
    assert 'value="allow"' in body and "Allow model processing again" in body
    assert "Opted out of model processing" in body  # the history


def test_opting_out_takes_effect_at_once_and_is_recorded(owner_client, owner):
    response = owner_client.post(SET, {"choice": "opt_out"}, follow=True)

    assert response.redirect_chain == [(PAGE, 302)]
    assert page_messages(response) == [f"You opted out. {OPTED_OUT}"]
    assert model_processing_allowed(owner) is False
    row = OperatorAction.objects.get(principal=owner)
    assert (row.actor, row.via, row.action) == (owner, "review", "model_processing_opted_out")


def test_allowing_it_again_is_recorded_too(owner_client, owner):
    model_processing_set(principal=owner, allowed=False)

    response = owner_client.post(SET, {"choice": "allow"}, follow=True)

    assert page_messages(response)[0].startswith("Model processing is allowed")
    assert model_processing_allowed(owner) is True
    assert changes(owner) == 2


def test_sending_the_form_twice_records_one_change(owner_client, owner):
    owner_client.post(SET, {"choice": "opt_out"})
    owner_client.post(SET, {"choice": "opt_out"})

    assert model_processing_allowed(owner) is False
    assert changes(owner) == 1


def test_a_get_of_the_action_changes_nothing(owner_client, owner):
    response = owner_client.get(SET, {"choice": "opt_out"})

    assert response.status_code == 405
    assert model_processing_allowed(owner) is True and changes(owner) == 0


def test_a_post_without_the_csrf_token_changes_nothing(owner):
    client = Client(enforce_csrf_checks=True, **PROXIED_HTTPS)
    client.force_login(owner)

    response = client.post(SET, {"choice": "opt_out"})

    assert response.status_code == 403
    assert model_processing_allowed(owner) is True and changes(owner) == 0


@pytest.mark.parametrize("data", [{}, {"choice": "toggle"}])
def test_a_malformed_choice_changes_nothing(owner_client, owner, data):
    response = owner_client.post(SET, data, follow=True)

    assert page_messages(response) == ["Nothing changed: the form did not say what you chose."]
    assert model_processing_allowed(owner) is True and changes(owner) == 0


def test_an_owner_changes_only_their_own_choice(owner_client, owner, other_owner):
    # The form names no account; whatever else is posted, it acts on the signed-in owner.
    owner_client.post(
        SET,
        {
            "choice": "opt_out",
            "principal": other_owner.pk,
            "user": other_owner.pk,
            "username": other_owner.username,
            "public_id": other_owner.public_id,
        },
    )
    model_processing_set(principal=other_owner, allowed=False)
    owner_client.post(SET, {"choice": "allow", "username": other_owner.username})

    assert model_processing_allowed(owner) is True
    assert model_processing_allowed(other_owner) is False
    assert changes(other_owner) == 1
    assert (
        "<strong>Model processing is allowed.</strong>" in owner_client.get(PAGE).content.decode()
    )


def test_the_owners_choice_is_not_listed_as_an_operators_action(owner_client, owner):
    model_processing_set(principal=owner, allowed=False)

    body = owner_client.get(reverse("review:account")).content.decode()

    assert "Nothing: no operator or administrator has acted on your account." in body


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", [PAGE, SET])
def test_anonymous_visitors_are_sent_to_the_login_page(client, owner, url, method):
    response = getattr(client, method)(url, {"choice": "opt_out"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("review:login"))
    assert model_processing_allowed(owner) is True and changes(owner) == 0
