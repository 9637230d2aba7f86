"""The owner's opt-out of model processing: the selector other code asks, the service that
sets it and records it, erasure, and the operator admin that may only look."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.audit import operator_actions_for
from accounts.models import OperatorAction
from accounts.selectors import model_processing_allowed, model_processing_history
from accounts.services import model_processing_set
from core.errors import ReverieError
from memory.services.account import account_erase, account_erasure_request

pytestmark = pytest.mark.django_db


def trail(principal):
    return list(
        OperatorAction.objects.filter(principal=principal)
        .order_by("id")
        .values_list("actor_name", "via", "action", "target")
    )


def test_model_processing_is_allowed_by_default(owner):
    assert model_processing_allowed(owner) is True


def test_opting_out_is_read_at_once_even_through_an_old_instance(owner):
    # A worker loaded the account before the owner opted out.
    held_by_a_worker = get_user_model().objects.get(pk=owner.pk)

    model_processing_set(principal=owner, allowed=False)

    assert model_processing_allowed(held_by_a_worker) is False
    assert held_by_a_worker.model_processing_opt_out is False  # the stale attribute
    model_processing_set(principal=owner, allowed=True)
    assert model_processing_allowed(held_by_a_worker) is True


def test_an_erased_account_is_not_allowed(owner):
    held_by_a_worker = get_user_model().objects.get(pk=owner.pk)
    account_erase(principal=owner, token=account_erasure_request(principal=owner)["token"])

    assert model_processing_allowed(held_by_a_worker) is False


def test_opting_out_and_back_in_is_recorded_with_the_owner_as_actor(owner, other_owner):
    returned = model_processing_set(principal=owner, allowed=False)
    model_processing_set(principal=owner, allowed=True)

    assert returned == owner and owner.model_processing_opt_out is False
    target = str(owner.public_id)
    assert trail(owner) == [
        ("owner", "review", "model_processing_opted_out", target),
        ("owner", "review", "model_processing_allowed", target),
    ]
    assert OperatorAction.objects.filter(actor=owner).count() == 2
    assert model_processing_allowed(other_owner) is True
    assert trail(other_owner) == []


def test_setting_the_value_it_already_has_records_nothing_more(owner):
    model_processing_set(principal=owner, allowed=True)
    model_processing_set(principal=owner, allowed=False)
    model_processing_set(principal=owner, allowed=False)

    assert [action for *_, action, _ in trail(owner)] == ["model_processing_opted_out"]
    assert model_processing_allowed(owner) is False


def test_the_history_lists_only_these_changes_newest_first(owner, operator):
    from accounts.services import principal_activation_set

    principal_activation_set(principal=owner, active=False, actor=operator, via="admin")
    model_processing_set(principal=owner, allowed=False)
    model_processing_set(principal=owner, allowed=True)

    assert [row.action for row in model_processing_history(principal=owner)] == [
        "model_processing_allowed",
        "model_processing_opted_out",
    ]


def test_the_owners_own_choice_is_not_among_what_operators_did(owner, operator):
    from accounts.services import principal_activation_set

    principal_activation_set(principal=owner, active=False, actor=operator, via="admin")
    model_processing_set(principal=owner, allowed=False)

    assert [row.action for row in operator_actions_for(principal=owner)] == [
        "principal_deactivated"
    ]


@pytest.mark.parametrize("allowed", ["no", None, 0])
def test_it_rejects_anything_but_true_or_false(owner, allowed):
    with pytest.raises(ReverieError) as raised:
        model_processing_set(principal=owner, allowed=allowed)

    assert raised.value.code == "validation_error"
    assert model_processing_allowed(owner) is True and trail(owner) == []


def test_erasing_an_account_that_opted_out_takes_its_records_with_it(owner, other_owner):
    model_processing_set(principal=owner, allowed=False)
    model_processing_set(principal=other_owner, allowed=False)

    account_erase(principal=owner, token=account_erasure_request(principal=owner)["token"])

    assert not get_user_model().objects.filter(username="owner").exists()
    assert not OperatorAction.objects.filter(actor_name="owner").exists()
    assert len(trail(other_owner)) == 1


def test_the_operator_admin_shows_the_choice_read_only(client, operator, owner):
    model_processing_set(principal=owner, allowed=False)
    client.force_login(operator)

    body = client.get(reverse("admin:accounts_user_change", args=[owner.pk])).content.decode()

    assert "opted out of model processing" in body.lower()
    assert 'name="model_processing_opt_out"' not in body


@pytest.mark.parametrize("opted_out", [False, True])
def test_an_operator_cannot_flip_it_for_an_owner(client, operator, owner, opted_out):
    model_processing_set(principal=owner, allowed=not opted_out)
    before = trail(owner)
    client.force_login(operator)
    url = reverse("admin:accounts_user_change", args=[owner.pk])

    response = client.post(
        url, {"is_active": "on", "model_processing_opt_out": "" if opted_out else "on"}
    )

    assert response.status_code == 302
    assert model_processing_allowed(owner) is not opted_out
    assert trail(owner) == before
