"""Owner pages speak the owner's words: no subject key, policy version or internal term shows
outside a page's "Details" disclosure."""

import re

import pytest
from django.urls import reverse

from common.principal import principal_context
from common.review.vocabulary import internal_words
from memory.models import Belief
from reconsolidation.services.undo import operation_undo
from tests.memory.helpers import conversation, remember
from tests.reconsolidation.banks import reconsolidated

from .helpers import memory_url


def visible_text(body):
    """What a person reads on the page: the content area, without scripts, styles, the
    Details disclosures, tags, attributes or form fields' hidden values."""
    content = body[body.index('id="content"') :]
    content = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", content)
    content = re.sub(r"(?s)<details\b.*?</details>", " ", content)
    content = re.sub(r"(?s)<[^>]+>", " ", content)
    return re.sub(r"\s+", " ", content)


@pytest.fixture
def pages(owner, processing_on):
    bank = reconsolidated(owner)
    session, (message,) = conversation(owner, "I just got an Apple Watch.")
    watch = remember(
        owner, "User has an Apple Watch.", subject="device:apple-watch", sources=[message]
    )
    inferred = remember(owner, "User lives in Porto.", subject="place:porto")
    with principal_context(owner):
        Belief.objects.filter(pk=inferred.pk).update(
            status="provisional", authority="inferred", confidence=0.55
        )
    merge = bank.operations["merge"]
    receipt = operation_undo(
        principal=owner,
        operation_id=merge.public_id,
        expected_revision=merge.revision,
        idempotency_key="review-undo-5f2c9a1b7d3e",
    )
    return [
        reverse("review:reconsolidation_operation_receipt", args=[merge.public_id, receipt.key]),
        reverse("review:index"),
        reverse("review:review_queue"),
        reverse("review:memory_belief_changelist"),
        memory_url(watch),
        memory_url(inferred),
        *(
            reverse(f"review:memory_belief_{page}", args=[watch.public_id])
            for page in ("correct", "history", "delete")
        ),
        reverse("review:memory_session_change", args=[session.public_id]),
        reverse("review:reconsolidation_derivedmemory_changelist"),
        reverse("review:reconsolidation_derivedmemory_change", args=[bank["merged"].public_id]),
        reverse("review:reconsolidation_operation_changelist"),
        reverse(
            "review:reconsolidation_operation_change", args=[bank.operations["merge"].public_id]
        ),
    ]


def test_no_owner_page_shows_an_internal_word_outside_its_details(owner_client, pages):
    found = {}
    for url in pages:
        response = owner_client.get(url)
        assert response.status_code == 200, url
        if words := internal_words(visible_text(response.content.decode())):
            found[url] = sorted(set(words))

    assert found == {}


@pytest.mark.parametrize(
    "text",
    [
        "Subject: device:apple-watch",
        "made under policy reconsolidation@1",
        "Authority: Explicit",
        "Revision 3",
        "Receipt review-undo-ba85d1c0e4",
    ],
)
def test_the_check_catches_what_it_is_for(text):
    assert internal_words(text)
