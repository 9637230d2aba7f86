"""The Synthesis section's preview of model-assisted reconsolidation: the owner sees what would
be sent to the configured provider (the loopback fake), or why nothing would, prepared from
their own memories only, with nothing written and nothing sent."""

import html
import re

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.services import model_processing_set
from common.principal import principal_context
from common.services.flags import flag_set
from providers.config import provider_config
from reconsolidation.assisted.preparation import prepare_proposal
from reconsolidation.assisted.topic_preparation import prepare_topic_proposal
from reconsolidation.selectors import preview
from tests.factories import UserFactory
from tests.memory.helpers import conversation, remember

from .helpers import memory_url

PREVIEW = reverse("review:reconsolidation_derivedmemory_model_preview")
SYNTHESIS = reverse("review:reconsolidation_derivedmemory_changelist")
PEPPER = "pet:pepper"
VISITS = "person:noor"


@pytest.fixture(autouse=True)
def surface(db):
    flag_set(key="reconsolidation_surface", enabled=True)


def _remember(owner, statement, message, subject):
    _, (event,) = conversation(owner, message)
    return remember(owner, statement, subject=subject, sources=[event])


@pytest.fixture
def bank(owner, provider_settings):
    """Two wordings of one claim, and two claims that local rules keep apart."""
    return {
        "called": _remember(
            owner, "User has a dog called Pepper.", "I have a dog called Pepper.", PEPPER
        ),
        "named": _remember(owner, "User's dog is named Pepper.", "My dog is named Pepper.", PEPPER),
        "noor": _remember(owner, "Noor visited Tariq.", "Noor visited Tariq last week.", VISITS),
        "tariq": _remember(owner, "Tariq visited Noor.", "Then Tariq visited Noor.", VISITS),
    }


@pytest.fixture
def their_bank(other_owner, provider_settings):
    """The other owner's two wordings of one claim, which only they may see."""
    return [
        _remember(
            other_owner, "User has a cat called Miso.", "I have a cat called Miso.", "pet:miso"
        ),
        _remember(other_owner, "User's cat is named Miso.", "My cat is named Miso.", "pet:miso"),
    ]


def page(client):
    response = client.get(PREVIEW)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def shown(body, css_class):
    """The texts of the elements of ``css_class`` on the page, unescaped."""
    return [
        html.unescape(text)
        for text in re.findall(rf'class="[^"]*\b{css_class}\b[^"]*">(.*?)<', body)
    ]


def section(body, key):
    """The part of the page about one request (``merge`` or ``topic``)."""
    found = re.search(
        rf'<section class="review-request" id="request-{key}">(.*?)</section>', body, re.S
    )
    assert found, key
    return found.group(1)


def row_counts(principal):
    """Rows of every table the principal can read."""
    with principal_context(principal):
        return {model._meta.label: model.objects.count() for model in apps.get_models()}


def test_the_page_shows_each_memory_and_message_exactly_as_the_request_holds_them(
    owner_client, owner, bank
):
    whole = page(owner_client)
    body = section(whole, "merge")

    prepared = prepare_proposal(owner, config=provider_config())
    assert prepared.deferred == ""
    assert shown(body, "review-sent") == [item.statement for item in prepared.items.values()]
    assert shown(body, "review-sent") == [
        "User has a dog called Pepper.",
        "User's dog is named Pepper.",
    ]
    assert shown(body, "review-excerpt") == [
        "I have a dog called Pepper.",
        "My dog is named Pepper.",
    ]
    assert f'href="{memory_url(bank["called"])}"' in body
    assert f'href="{memory_url(bank["named"])}"' in body
    assert f"{len(prepared.payload)} bytes" in body
    assert prepared.digest in body
    assert f"${prepared.price:.6f}" in body
    assert html.unescape(whole).count(prepared.payload.decode()) == 1


def test_the_topic_request_shows_memories_without_messages(owner_client, owner, bank):
    body = section(page(owner_client), "topic")

    prepared = prepare_topic_proposal(owner, config=provider_config())
    assert shown(body, "review-sent") == [item.statement for item in prepared.items.values()]
    assert len(prepared.items) == 4 and shown(body, "review-excerpt") == []
    assert f"{len(prepared.payload)} bytes" in body and prepared.digest in body


def test_what_local_rules_keep_apart_is_counted_with_its_reason_and_never_shown(owner_client, bank):
    body = section(page(owner_client), "merge")

    assert re.search(r'data-reason="order_differs"><td class="count">1</td>', body)
    assert "in a different order" in body
    assert "Tariq" not in body and "Noor" not in body


def test_it_says_whether_asking_a_model_is_switched_on(owner_client, bank, monkeypatch):
    off = page(owner_client)
    assert "Asking a model is switched off" in off
    assert "below is what would be sent if it were switched on" in off

    monkeypatch.setattr(preview, "flag_enabled", lambda key: key == "reconsolidation_provider")
    body = page(owner_client)

    assert "Asking a model is switched on" in body
    assert "fake-1" in body and "“local”" in body


def test_an_owner_who_opted_out_is_told_why_nothing_would_be_sent(owner_client, owner, bank):
    model_processing_set(principal=owner, allowed=False)

    body = page(owner_client)

    assert 'data-reason="opted_out"' in body
    assert "You opted out of model processing" in body
    # The page does not promise, above, requests it then does not show.
    assert "below is what would be sent" not in body
    assert "nothing would be sent now either" in body
    assert reverse("review:account_model_processing") in body
    assert "Pepper" not in body and 'class="review-request-facts"' not in body


def test_without_a_provider_there_is_nowhere_to_send(owner_client, owner, bank, settings):
    settings.REVERIE_PROVIDER = {**settings.REVERIE_PROVIDER, "base_url": "", "model": ""}

    body = page(owner_client)

    assert 'data-reason="not_configured"' in body
    assert "No language-model provider is configured" in body
    assert "Pepper" not in body


def test_with_nothing_to_ask_the_page_says_so_and_counts_what_was_left_out(
    owner_client, owner, provider_settings
):
    _remember(owner, "Noor visited Tariq.", "Noor visited Tariq last week.", VISITS)
    _remember(owner, "Tariq visited Noor.", "Then Tariq visited Noor.", VISITS)

    body = page(owner_client)

    assert 'data-reason="nothing_to_ask"' in body
    assert 'data-reason="order_differs"' in body


def test_an_unknown_reason_is_still_explained(owner_client, owner, bank, monkeypatch):
    def prepared(principal, *, config):
        request = prepare_proposal(principal, config=config)
        request.excluded["something_new"] += 2
        return request

    monkeypatch.setattr(preview, "PREVIEW_STAGES", (preview.PreviewStage("merge", prepared),))

    body = page(owner_client)

    assert "Left out for another reason (something_new)." in body


def test_another_owners_memories_never_appear(
    owner_client, client, owner, other_owner, bank, their_bank
):
    body = page(owner_client)
    client.force_login(other_owner)
    theirs = page(client)

    assert "Miso" not in body and "Pepper" in body
    assert "Pepper" not in theirs and "Miso" in theirs


@pytest.mark.parametrize("persona", ["operator", "superuser"])
def test_an_operator_previews_only_their_own_bank_whatever_the_query_says(
    client, request, persona, owner, bank
):
    if persona == "operator":
        user = request.getfixturevalue("operator")
    else:
        user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)

    response = client.get(PREVIEW, {"owner": owner.public_id, "principal": owner.pk})

    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-reason="nothing_to_ask"' in body and "Pepper" not in body


def test_preparing_the_page_writes_nothing_and_sends_nothing(
    owner_client, owner, bank, fake_provider
):
    before = row_counts(owner)

    body = page(owner_client)

    assert "User has a dog called Pepper." in body
    assert row_counts(owner) == before
    assert before["reconsolidation.ProviderCall"] == 0 and before["providers.ProviderSpend"] == 0
    assert fake_provider.requests == 0


def test_the_synthesis_page_links_to_the_preview(owner_client):
    response = owner_client.get(SYNTHESIS)

    assert f'href="{PREVIEW}" id="model-preview-link"' in response.content.decode()


def test_with_the_surface_off_the_preview_is_not_there(owner_client, bank):
    flag_set(key="reconsolidation_surface", enabled=False)

    assert owner_client.get(PREVIEW).status_code == 404


def test_signed_out_the_preview_asks_to_sign_in(client, bank):
    response = client.get(PREVIEW)

    assert response.status_code == 302 and "/review/login/" in response["Location"]
