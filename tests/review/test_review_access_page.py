"""The owner's Access page: each token with its reads of the last seven days and its recent
reads linked to the memories they returned, a pause switch, and on each memory's page the
assistants that read it. Only the owner's own tokens and reads."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import api_token_create, api_token_pause
from common.principal import principal_context
from memory.models import AccessRecord
from memory.services.access_log import access_record
from memory.services.beliefs import belief_delete
from tests.memory.helpers import remember

from .conftest import THEIR_SECRET
from .helpers import memory_url

ACCESS = reverse("review:access")


def read(principal, token, *memories, route="api:recall", days_ago=0):
    record_id = access_record(
        principal=principal,
        token=token,
        route=route,
        request_id="r",
        memories=[memory.public_id for memory in memories],
    )
    with principal_context(principal):
        if days_ago:
            AccessRecord.objects.filter(pk=record_id).update(
                created_at=timezone.now() - timedelta(days=days_ago)
            )
        return AccessRecord.objects.get(pk=record_id)


def text(response):
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def reads(owner):
    desktop = api_token_create(principal=owner, name="desktop assistant")[0]
    phone = api_token_create(principal=owner, name="phone app", read_only=True)[0]
    kayak = remember(owner, "User owns a red kayak.")
    read(owner, desktop, kayak, days_ago=10)
    read(owner, desktop, kayak, route="api:memory")
    read(owner, phone, kayak)
    read(owner, phone)
    return {"desktop": desktop, "phone": phone, "kayak": kayak}


def test_the_access_page_lists_each_token_with_its_reads_of_the_last_week(owner_client, reads):
    page = text(owner_client.get(ACCESS))

    assert re.search(
        r"desktop assistant</a></td> <td>all memories, reads and writes</td>.*?"
        r'<td class="access-reads">1</td> <td class="token-state">active</td>',
        page,
    )
    assert re.search(
        r'phone app</a></td> <td>all memories, read only</td>.*?<td class="access-reads">2</td>',
        page,
    )
    # The recent reads, each with what it was and links to the memories it returned; the
    # phone's two recalls of this hour make one line.
    assert page.count('class="access-read"') == 3
    assert "recalled ×2" in page
    assert page.count(f'href="{memory_url(reads["kayak"])}" class="access-memory"') == 3
    assert "read a memory" in page and "recalled" in page


def test_a_read_through_a_route_of_an_app_built_on_memory_is_shown_in_its_words(
    owner_client, owner
):
    token = api_token_create(principal=owner, name="desktop assistant")[0]
    read(owner, token, route="reconsolidation_api:derived")
    read(owner, token, route="api:unknown-route")

    page = text(owner_client.get(ACCESS))

    assert "read a derived memory" in page
    assert "api:unknown-route" in page


def test_an_owner_pauses_a_token_from_the_access_page_and_comes_back_to_it(
    owner_client, owner, reads
):
    phone = reads["phone"]

    response = owner_client.post(
        reverse("review:account_token_pause"),
        {"token": phone.public_id, "next": ACCESS},
        follow=True,
    )

    phone.refresh_from_db()
    assert phone.paused_at is not None
    assert response.redirect_chain == [(ACCESS, 302)]
    page = text(response)
    assert "The token is paused" in page
    assert 'value="Resume" class="button token-resume"' in page
    assert re.search(r"<td>phone app</td> <td>paused an API token</td>", page)


def test_a_tokens_reads_page_lists_its_reads_and_only_the_owners(owner_client, other_owner, reads):
    theirs = api_token_create(principal=other_owner, name="theirs")[0]
    their_memory = remember(other_owner, THEIR_SECRET)
    read(other_owner, theirs, their_memory)

    mine = text(owner_client.get(reverse("review:access_token", args=[reads["desktop"].public_id])))
    other = owner_client.get(reverse("review:access_token", args=[theirs.public_id]))

    assert mine.count('class="access-read"') == 2
    assert other.status_code == 404
    page = text(owner_client.get(ACCESS))
    assert "theirs" not in page and THEIR_SECRET not in page


def test_a_memorys_page_says_which_assistants_read_it_how_often_and_when_last(owner_client, reads):
    page = text(owner_client.get(memory_url(reads["kayak"])))

    readers = re.findall(
        r'<tr class="memory-reader"><td><a href="[^"]+">([^<]+)</a></td><td>(\d+)', page
    )
    assert readers == [("phone app", "1"), ("desktop assistant", "2")]


def test_an_unread_memory_says_no_assistant_read_it(owner_client, owner):
    page = text(owner_client.get(memory_url(remember(owner, "User owns a green canoe."))))

    assert "No assistant has read it yet" in page


def test_an_erased_memory_speaks_in_the_past(owner_client, owner):
    canoe = remember(owner, "User owns a green canoe.")
    belief_delete(principal=owner, belief_id=canoe.public_id, expected_revision=1)

    page = text(owner_client.get(memory_url(canoe)))

    assert "No assistant read it" in page
    assert "yet" not in page.split('id="readers-none">')[1].split("</p>")[0]


def test_the_review_sites_own_reads_are_not_recorded(owner_client, owner, reads):
    owner_client.get(ACCESS)
    owner_client.get(memory_url(reads["kayak"]))

    with principal_context(owner):
        assert AccessRecord.objects.count() == 4


def test_a_paused_token_shows_as_paused(owner_client, owner, reads):
    api_token_pause(token_id=reads["desktop"].public_id, principal=owner, via="review")

    page = text(owner_client.get(ACCESS))

    assert re.search(r'<td class="token-state">paused [^<]+</td>', page)


def test_reads_through_one_route_within_an_hour_make_one_line_and_recalls_come_first(
    owner_client, owner
):
    token = api_token_create(principal=owner, name="desktop assistant")[0]
    kayak = remember(owner, "User owns a red kayak.")
    for _ in range(24):
        read(owner, token, route="api:memories")
    read(owner, token, kayak)
    for _ in range(3):
        read(owner, token, route="api:memories")

    page = text(owner_client.get(ACCESS))
    lines = re.findall(r'<tr class="access-read"> <td>[^<]*</td> <td>([^<]+)</td>', page)

    # The hour's recall first, then its 27 listings as one line.
    assert lines == ["recalled", "listed memories ×27"]


def test_last_used_is_the_latest_read(owner_client, owner):
    token = api_token_create(principal=owner, name="desktop assistant")[0]
    read(owner, token)

    page = text(owner_client.get(ACCESS))
    row = page.split(f'id="access-token-{token.public_id}"')[1].split("</tr>")[0]

    assert "never" not in row


def test_home_has_an_access_card(owner_client, owner, reads):
    page = text(owner_client.get(reverse("review:index")))
    card = page.split('id="card-access"')[1].split("</div> <div")[0]

    assert '<div class="count">3</div>' in card
    assert "reads of your memories in the last 7 days" in card
    assert "by 2 assistant tokens" in card
