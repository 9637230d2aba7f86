"""What a new owner notices first: where / leads, which memories the list shows, how review
and dates read, what an empty page says, and whose admin the operators use."""

from django.urls import reverse

from common.principal import principal_context
from formation.services import formation_consolidate
from memory.enums import BeliefStatus
from memory.models import Belief
from memory.services.beliefs import belief_delete, belief_reject
from tests.memory.helpers import conversation, remember

from .helpers import formed

MEMORIES = reverse("review:memory_belief_changelist")


def body_of(response):
    assert response.status_code == 200
    return response.content.decode()


def test_the_front_door_is_the_review_site(client, db):
    response = client.get("/")

    assert (response.status_code, response["Location"]) == (302, reverse("review:index"))


def test_the_memory_list_shows_memories_in_use_unless_asked(owner_client, owner):
    remember(owner, "User likes tea.")
    formed(owner, "User lives in Porto.")
    rejected = remember(owner, "User hates rain.")
    belief_reject(principal=owner, belief_id=rejected.public_id, expected_revision=1)
    erased = remember(owner, "User's locker number is 1234.")
    belief_delete(principal=owner, belief_id=erased.public_id, expected_revision=1)

    def listed(query=""):
        response = owner_client.get(MEMORIES + query)
        assert response.status_code == 200
        return sorted(b.statement or "(erased)" for b in response.context["cl"].result_list)

    assert listed() == ["User likes tea.", "User lives in Porto."]
    assert listed("?status=live") == listed()
    assert listed("?status=rejected") == ["User hates rain."]
    assert listed("?status=all") == [
        "(erased)",
        "User hates rain.",
        "User likes tea.",
        "User lives in Porto.",
    ]
    sidebar = body_of(owner_client.get(MEMORIES)).split('id="changelist-filter"')[1]
    assert 'class="selected"' in sidebar.split("In use")[0].rsplit("<li", 1)[1]


def test_needs_review_is_a_neutral_badge_not_a_red_cross(owner_client, owner):
    formed(owner, "User lives in Porto.")
    remember(owner, "User likes tea.")

    body = body_of(owner_client.get(MEMORIES))

    assert body.count('<span class="review-badge">needs review</span>') == 1
    assert "icon-no.svg" not in body and "icon-yes.svg" not in body


def test_dates_read_the_same_everywhere(owner_client, owner):
    belief = remember(owner, "User likes tea.")

    body = body_of(owner_client.get(MEMORIES))

    assert belief.updated_at.strftime("%Y-%m-%d %H:%M") in body
    assert "a.m." not in body and "p.m." not in body


def test_empty_pages_say_what_to_do_next(owner_client, db):
    memories = body_of(owner_client.get(MEMORIES))
    queue = body_of(owner_client.get(reverse("review:review_queue")))
    sessions = body_of(owner_client.get(reverse("review:memory_session_changelist")))

    assert "You have no memories yet. They form on their own" in memories
    assert "No memory waits for you." in queue
    assert "No conversations yet." in sessions


def test_an_empty_filter_is_told_apart_from_an_empty_bank(owner_client, owner):
    remember(owner, "User likes tea.")

    body = body_of(owner_client.get(MEMORIES + "?status=expired"))

    assert "No memory matches." in body and "You have no memories yet" not in body


def test_a_conversation_shows_its_external_id(owner_client, owner):
    session, _ = conversation(owner, "Hello there.", external_id="chat-42")

    listing = body_of(owner_client.get(reverse("review:memory_session_changelist")))
    page = body_of(
        owner_client.get(reverse("review:memory_session_change", args=[session.public_id]))
    )

    assert "chat-42" in listing and "chat-42" in page


def test_a_memorys_page_says_why_it_exists_before_what_it_holds(owner_client, owner):
    _, (message,) = conversation(owner, "I live in Porto now.")
    belief = formed(owner, "User lives in Porto.", sources=[message])
    stated = remember(owner, "User likes tea.")

    formed_page = body_of(
        owner_client.get(reverse("review:memory_belief_change", args=[belief.public_id]))
    )
    stated_page = body_of(
        owner_client.get(reverse("review:memory_belief_change", args=[stated.public_id]))
    )

    assert (
        "Reverie formed it on its own. It rests on your words “I live in Porto now.” It was "
        "inferred, so it waits for you to confirm or reject it." in formed_page
    )
    assert formed_page.index("Why it exists") < formed_page.index("How it is held")
    assert "You stated it" in stated_page
    assert belief.status == BeliefStatus.PROVISIONAL


def test_the_operator_admin_is_branded_as_reveries(client, operator):
    client.force_login(operator)

    body = body_of(client.get(reverse("admin:index")))

    assert "Reverie operator admin" in body and "Django administration" not in body


def test_a_formed_memorys_details_name_the_formation_policy_that_formed_it(owner_client, owner):
    session, (message,) = conversation(owner, "I just got an Apple Watch.")
    formation_consolidate(principal=owner, session_id=session.public_id)
    with principal_context(owner):
        belief = Belief.objects.get(owner=owner, subject="device:apple-watch")

    page = body_of(
        owner_client.get(reverse("review:memory_belief_change", args=[belief.public_id]))
    )

    assert (
        "Reverie formed it on its own. It rests on your words “I just got an Apple Watch.”" in page
    )
    details = page.split("<details")[1].split("</details>")[0]
    assert "formation@2" in details and "formation@2" not in page.replace(details, "")
