"""Hostile input on the review site: a clear refusal, never a server error, nothing changed."""

import pytest
from django.urls import reverse

from memory.enums import BeliefStatus

from .helpers import formed, page_messages, reload

QUEUE = reverse("review:review_queue")


@pytest.mark.parametrize(
    "url",
    [
        "/review/memory/belief/?status__exact=%00",
        "/review/memory/belief/?q=%00",
        "/review/memory/belief/?%00=1",
        "/review/queue/?type__exact=%00",
    ],
)
def test_a_nul_byte_in_a_filter_is_a_bad_request(owner_client, url):
    assert owner_client.get(url).status_code == 400


def test_a_nul_byte_in_a_posted_form_is_a_bad_request_and_changes_nothing(owner_client, owner):
    belief = formed(owner, "User lives in Porto.")
    data = {"action": "confirm_selected", "index": 0, "_selected_action": [belief.pk], "x": "\x00"}

    assert owner_client.post(QUEUE, data).status_code == 400
    assert reload(owner, belief).status == BeliefStatus.PROVISIONAL


@pytest.mark.parametrize("selected", ["abc", "1.5", "-1", "9" * 40, "١"])
def test_a_malformed_bulk_selection_is_refused_and_changes_nothing(owner_client, owner, selected):
    belief = formed(owner, "User lives in Porto.")
    data = {"action": "confirm_selected", "index": 0, "_selected_action": [belief.pk, selected]}

    response = owner_client.post(QUEUE, data, follow=True)

    assert response.status_code == 200
    assert "That selection is not valid; nothing was changed." in page_messages(response)
    assert reload(owner, belief).status == BeliefStatus.PROVISIONAL
