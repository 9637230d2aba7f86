"""The review queue: provisional and flagged memories, confirmed or rejected singly or in bulk."""

from django.urls import reverse

from memory.enums import BeliefStatus
from memory.services.beliefs import belief_reject
from tests.memory.helpers import remember

from .conftest import THEIR_SECRET
from .helpers import change_elsewhere, formed, memory_url, page_messages, reload

QUEUE = reverse("review:review_queue")


def queued(client):
    response = client.get(QUEUE)
    assert response.status_code == 200
    return sorted(belief.statement for belief in response.context["cl"].result_list)


def bulk(client, action, beliefs, *, seen=None):
    """Post the queue's action form as the page would, with the revisions it showed."""
    seen = seen or {}
    data = {
        "action": action,
        "index": 0,
        "_selected_action": [belief.pk for belief in beliefs],
        **{
            f"seen-revision-{belief.pk}": seen.get(belief.pk, belief.revision) for belief in beliefs
        },
    }
    return client.post(QUEUE, data, follow=True)


def test_it_holds_provisional_and_flagged_memories_only(owner_client, owner, theirs):
    formed(owner, "User lives in Porto.")
    formed(owner, "User's blood type is A+.", status=BeliefStatus.ACTIVE, needs_review=True)
    remember(owner, "User likes tea.")
    belief_reject(
        principal=owner,
        belief_id=formed(owner, "User hates figs.").public_id,
        expected_revision=1,
    )

    assert queued(owner_client) == ["User lives in Porto.", "User's blood type is A+."]
    assert THEIR_SECRET not in owner_client.get(QUEUE).content.decode()


def test_each_row_offers_confirm_and_reject_with_the_revision_shown(owner_client, owner):
    belief = formed(owner, "User lives in Porto.")

    body = owner_client.get(QUEUE).content.decode()

    assert f'formaction="{memory_url(belief, "confirm")}?next=' in body
    assert f'formaction="{memory_url(belief, "reject")}?next=' in body
    assert f'name="seen-revision-{belief.pk}" value="1"' in body


def test_a_row_links_to_the_memory_page_by_public_id(owner_client, owner):
    belief = formed(owner, "User lives in Porto.")

    assert f'href="{memory_url(belief)}"' in owner_client.get(QUEUE).content.decode()


def test_confirming_one_row_returns_to_the_queue(owner_client, owner):
    belief = formed(owner, "User lives in Porto.")

    response = owner_client.post(
        memory_url(belief, "confirm") + f"?next={QUEUE}", {"expected_revision": 1}, follow=True
    )

    assert reload(owner, belief).status == BeliefStatus.ACTIVE
    assert response.redirect_chain[-1][0] == QUEUE
    assert page_messages(response) == ["Confirmed the memory."]
    assert queued(owner_client) == []


def test_confirming_in_bulk_confirms_each_selected_memory(owner_client, owner):
    porto = formed(owner, "User lives in Porto.")
    blood = formed(owner, "User's blood type is A+.", status=BeliefStatus.ACTIVE, needs_review=True)
    figs = formed(owner, "User likes figs.")

    response = bulk(owner_client, "confirm_selected", [porto, blood])

    assert [reload(owner, b).status for b in (porto, blood, figs)] == [
        "active",
        "active",
        "provisional",
    ]
    assert reload(owner, blood).needs_review is False
    assert page_messages(response) == ["2 memories confirmed."]


def test_rejecting_in_bulk_rejects_each_selected_memory(owner_client, owner):
    porto, figs = formed(owner, "User lives in Porto."), formed(owner, "User likes figs.")

    response = bulk(owner_client, "reject_selected", [porto, figs])

    assert {reload(owner, b).status for b in (porto, figs)} == {"rejected"}
    assert page_messages(response) == ["2 memories rejected."]


def test_a_bulk_action_reports_rows_changed_since_the_page_was_shown(owner_client, owner):
    porto, figs, tea = (
        formed(owner, "User lives in Porto."),
        formed(owner, "User likes figs."),
        formed(owner, "User likes tea."),
    )
    change_elsewhere(owner, figs)

    response = bulk(owner_client, "confirm_selected", [porto, figs, tea])

    assert [reload(owner, b).status for b in (porto, figs, tea)] == [
        "active",
        "provisional",
        "active",
    ]
    assert page_messages(response) == [
        "2 memories confirmed.",
        "1 memory could not be confirmed: "
        "The memory has changed since you read it. It was left as it is.",
    ]


def test_a_bulk_action_reports_rows_that_left_the_queue_meanwhile(owner_client, owner):
    porto, figs = formed(owner, "User lives in Porto."), formed(owner, "User likes figs.")
    # Rejected in another tab after the queue was shown.
    belief_reject(principal=owner, belief_id=figs.public_id, expected_revision=1)

    response = bulk(owner_client, "confirm_selected", [porto, figs])

    assert reload(owner, porto).status == BeliefStatus.ACTIVE
    assert reload(owner, figs).status == BeliefStatus.REJECTED
    assert page_messages(response) == [
        "1 memory confirmed.",
        "1 memory no longer waited for review. It was left as it is.",
    ]


def test_selecting_all_across_pages_uses_each_rows_current_revision(owner_client, owner):
    porto, figs = formed(owner, "User lives in Porto."), formed(owner, "User likes figs.")

    response = owner_client.post(
        QUEUE,
        # The page selects its own rows too; the other pages' rows were never shown.
        {
            "action": "confirm_selected",
            "index": 0,
            "select_across": 1,
            "_selected_action": [porto.pk],
        },
        follow=True,
    )

    assert {reload(owner, b).status for b in (porto, figs)} == {"active"}
    assert page_messages(response) == ["2 memories confirmed."]
