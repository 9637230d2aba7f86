"""The memory list, one memory's page, and the confirm, reject, correct, erase and history pages."""

import pytest
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.urls import reverse

from memory.enums import BeliefStatus, BeliefType, Sensitivity
from memory.models import BeliefSource
from memory.services.beliefs import belief_correct, belief_delete
from tests.memory.helpers import conversation, remember

from .conftest import THEIR_SECRET
from .helpers import (
    change_elsewhere,
    formed,
    memory_url,
    owned,
    page_messages,
    reload,
    session_url,
)


def listed(client, query=""):
    response = client.get(reverse("review:memory_belief_changelist") + query)
    assert response.status_code == 200
    return sorted(belief.statement for belief in response.context["cl"].result_list)


class TestMemoryList:
    def test_it_lists_the_owners_memories_and_no_one_elses(self, owner_client, owner, theirs):
        remember(owner, "User likes tea.")
        formed(owner, "User lives in Porto.")

        response = owner_client.get(reverse("review:memory_belief_changelist"))

        body = response.content.decode()
        assert "User likes tea." in body
        assert "User lives in Porto." in body
        assert THEIR_SECRET not in body

    def test_it_filters_by_status_type_sensitivity_and_review_flag(self, owner_client, owner):
        remember(owner, "User likes tea.", type=BeliefType.PREFERENCE)
        formed(owner, "User lives in Porto.", sensitivity=Sensitivity.PERSONAL)
        formed(owner, "User's blood type is A+.", status=BeliefStatus.ACTIVE, needs_review=True)

        assert listed(owner_client, "?status=provisional") == ["User lives in Porto."]
        assert listed(owner_client, "?type__exact=preference") == ["User likes tea."]
        assert listed(owner_client, "?sensitivity__exact=personal") == ["User lives in Porto."]
        assert listed(owner_client, "?needs_review__exact=1") == ["User's blood type is A+."]

    def test_it_searches_statements_and_subjects(self, owner_client, owner, theirs):
        remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")
        remember(owner, "User likes tea.")

        assert listed(owner_client, "?q=tea") == ["User likes tea."]
        assert listed(owner_client, "?q=vehicle") == ["User drives a BMW X3."]
        assert listed(owner_client, "?q=4711") == []

    def test_a_search_counts_only_what_it_shows(self, owner_client, owner):
        # Beside "1 result", a total that counted erased memories read as a second
        # count of the same list that disagreed with the first.
        remember(owner, "User likes tea.")
        erased = remember(owner, "User likes green tea.")
        belief_delete(principal=owner, belief_id=erased.public_id, expected_revision=1)

        body = owner_client.get(reverse("review:memory_belief_changelist") + "?q=tea")
        count = body.content.decode().split('id="search-result-count">')[1].split("</span>")[0]

        assert count.startswith("1 result (")
        assert "total" not in count

    def test_it_shows_the_memory_its_sources_and_the_actions_it_allows(self, owner_client, owner):
        session, (message,) = conversation(owner, "I live in Porto now.")
        belief = formed(owner, "User lives in Porto.", sources=[message])

        response = owner_client.get(memory_url(belief))

        body = response.content.decode()
        assert response.status_code == 200
        assert "User lives in Porto." in body
        assert "“I live in Porto now.”" in body
        assert session_url(session) in body
        for action in ("confirm", "reject", "correct", "delete", "history"):
            assert memory_url(belief, action) in body

    def test_an_active_memory_offers_no_confirm_or_reject(self, owner_client, owner):
        belief = remember(owner, "User likes tea.")

        body = owner_client.get(memory_url(belief)).content.decode()

        assert memory_url(belief, "confirm") not in body
        assert memory_url(belief, "correct") in body

    def test_nobody_edits_or_adds_a_memory_through_the_admin_form(self, owner_client, owner):
        belief = remember(owner, "User likes tea.")

        edited = owner_client.post(memory_url(belief), {"statement": "User likes coffee."})
        added = owner_client.post(
            reverse("review:memory_belief_add"), {"statement": "User likes coffee."}
        )

        assert edited.status_code == 403
        assert added.status_code == 403
        assert reload(owner, belief).statement == "User likes tea."
        assert len(owned(owner)) == 1


class TestConfirmAndReject:
    def test_confirming_makes_a_provisional_memory_active(self, owner_client, owner):
        belief = formed(owner, "User lives in Porto.")

        response = owner_client.post(
            memory_url(belief, "confirm"), {"expected_revision": 1}, follow=True
        )

        assert reload(owner, belief).status == BeliefStatus.ACTIVE
        assert response.redirect_chain[-1][0] == memory_url(belief)
        assert page_messages(response) == ["Confirmed the memory."]

    def test_rejecting_makes_a_memory_rejected(self, owner_client, owner):
        belief = formed(owner, "User lives in Porto.")

        response = owner_client.post(
            memory_url(belief, "reject"), {"expected_revision": 1}, follow=True
        )

        assert reload(owner, belief).status == BeliefStatus.REJECTED
        assert page_messages(response) == ["Rejected the memory."]

    def test_a_stale_revision_is_reported_and_changes_nothing(self, owner_client, owner):
        belief = formed(
            owner, "User lives in Porto.", status=BeliefStatus.ACTIVE, needs_review=True
        )
        change_elsewhere(owner, belief)

        response = owner_client.post(
            memory_url(belief, "confirm"), {"expected_revision": 1}, follow=True
        )

        after = reload(owner, belief)
        assert (after.status, after.needs_review, after.revision) == ("active", True, 2)
        assert page_messages(response) == [
            "Could not confirm the memory: The memory has changed since you read it. "
            "Nothing was changed."
        ]

    def test_a_missing_revision_is_reported_and_changes_nothing(self, owner_client, owner):
        belief = formed(owner, "User lives in Porto.")

        response = owner_client.post(memory_url(belief, "confirm"), {}, follow=True)

        assert reload(owner, belief).status == BeliefStatus.PROVISIONAL
        assert "did not say which version you saw" in page_messages(response)[0]

    def test_confirm_and_reject_answer_only_posts(self, owner_client, owner):
        belief = formed(owner, "User lives in Porto.")

        assert owner_client.get(memory_url(belief, "confirm")).status_code == 405
        assert owner_client.get(memory_url(belief, "reject")).status_code == 405
        assert reload(owner, belief).status == BeliefStatus.PROVISIONAL

    def test_it_returns_to_the_page_it_came_from_but_never_off_the_site(self, owner_client, owner):
        first, second = formed(owner, "User lives in Porto."), formed(owner, "User likes figs.")
        queue = reverse("review:review_queue")

        back = owner_client.post(
            memory_url(first, "confirm") + f"?next={queue}", {"expected_revision": 1}
        )
        away = owner_client.post(
            memory_url(second, "confirm"),
            {"expected_revision": 1, "next": "https://evil.example/"},
        )

        assert back["Location"] == queue
        assert away["Location"] == memory_url(second)


class TestCorrect:
    def test_the_form_shows_the_current_statement_and_asks_for_the_wording_only(
        self, owner_client, owner
    ):
        belief = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        response = owner_client.get(memory_url(belief, "correct"))

        body = response.content.decode()
        assert "User drives a BMW X3." in body
        assert 'name="expected_revision" value="1"' in body
        assert 'name="subject"' not in body and "vehicle:bmw-x3" not in body

    def test_reviewing_a_correction_asks_for_confirmation_and_changes_nothing(
        self, owner_client, owner
    ):
        belief = remember(owner, "User drives a BMW X3.")

        response = owner_client.post(
            memory_url(belief, "correct"),
            {"expected_revision": 1, "statement": "User drives a Volvo XC60."},
        )

        body = response.content.decode()
        assert "You are about to replace" in body
        assert "User drives a BMW X3." in body
        assert "User drives a Volvo XC60." in body
        assert reload(owner, belief).status == BeliefStatus.ACTIVE
        assert len(owned(owner)) == 1

    def test_a_confirmed_correction_supersedes_the_old_memory(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        response = owner_client.post(
            memory_url(belief, "correct"),
            {
                "expected_revision": 1,
                "statement": "User drives a Volvo XC60.",
                # Not a field of the owner's form: the correction stays about the same thing.
                "subject": "vehicle:volvo-xc60",
                "_confirm": "1",
            },
            follow=True,
        )

        old = reload(owner, belief)
        (new,) = owned(owner, supersedes=old)
        assert old.status == BeliefStatus.SUPERSEDED
        assert (new.status, new.statement, new.subject) == (
            BeliefStatus.ACTIVE,
            "User drives a Volvo XC60.",
            "vehicle:bmw-x3",
        )
        assert response.redirect_chain[-1][0] == memory_url(new)
        assert page_messages(response) == ["Corrected: the new version replaces the old one."]

    def test_the_correction_keeps_the_subject(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        owner_client.post(
            memory_url(belief, "correct"),
            {"expected_revision": 1, "statement": "User drives a red BMW X3.", "_confirm": "1"},
        )

        (new,) = owned(owner, supersedes=belief)
        assert new.subject == "vehicle:bmw-x3"

    def test_a_stale_correction_is_reported_and_changes_nothing(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.")
        belief_correct(
            principal=owner,
            belief_id=belief.public_id,
            expected_revision=1,
            statement="User drives a Volvo XC60.",
        )

        response = owner_client.post(
            memory_url(belief, "correct"),
            {"expected_revision": 1, "statement": "User drives an Audi.", "_confirm": "1"},
            follow=True,
        )

        assert owned(owner, statement="User drives an Audi.") == []
        assert "has changed since you read it" in page_messages(response)[0]

    def test_a_refused_wording_is_reported_and_the_form_kept(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.")

        response = owner_client.post(
            memory_url(belief, "correct"),
            {"expected_revision": 1, "statement": "User drives a BMW X3.", "_confirm": "1"},
        )

        assert response.status_code == 200
        assert "The correction states the same claim." in page_messages(response)[0]
        assert 'id="correct-form"' in response.content.decode()
        assert reload(owner, belief).status == BeliefStatus.ACTIVE

    def test_changing_the_wording_goes_back_to_the_form(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.")

        response = owner_client.post(
            memory_url(belief, "correct"),
            {"expected_revision": 1, "statement": "User drives a Volvo.", "_edit": "1"},
        )

        assert 'id="correct-form"' in response.content.decode()
        assert "User drives a Volvo." in response.content.decode()


class TestErase:
    def test_it_asks_for_confirmation_first_and_a_get_changes_nothing(self, owner_client, owner):
        belief = remember(owner, "User's locker number is 1234.")

        response = owner_client.get(memory_url(belief, "delete"))

        body = response.content.decode()
        assert "This erases the text of this memory" in body
        assert "cannot be undone" in body
        assert reload(owner, belief).status == BeliefStatus.ACTIVE

    def test_confirming_erases_the_text_and_the_excerpts(self, owner_client, owner):
        _, (message,) = conversation(owner, "My PIN is 1234.")
        belief = remember(owner, "User's locker number is 1234.", sources=[message])

        response = owner_client.post(
            memory_url(belief, "delete"), {"expected_revision": 1}, follow=True
        )

        erased = reload(owner, belief)
        assert (erased.status, erased.statement, erased.subject) == ("deleted", "", "")
        assert [source.excerpt for source in owned(owner, BeliefSource)] == [""]
        assert response.redirect_chain[-1][0] == reverse("review:memory_belief_changelist")
        assert page_messages(response) == ["The memory was erased."]
        assert "1234" not in response.content.decode()

    def test_a_stale_erasure_is_reported_and_changes_nothing(self, owner_client, owner):
        belief = formed(owner, "User's locker number is 1234.")
        owner_client.post(memory_url(belief, "confirm"), {"expected_revision": 1})

        response = owner_client.post(
            memory_url(belief, "delete"), {"expected_revision": 1}, follow=True
        )

        assert reload(owner, belief).statement == "User's locker number is 1234."
        assert "has changed since you read it" in page_messages(response)[-1]

    def test_an_erased_memory_cannot_be_erased_again(self, owner_client, owner):
        belief = remember(owner, "User's locker number is 1234.")
        owner_client.post(memory_url(belief, "delete"), {"expected_revision": 1})

        page = owner_client.get(memory_url(belief, "delete")).content.decode()

        assert "This memory is already erased." in page
        assert 'id="delete-form"' not in page


class TestHistory:
    def test_it_lists_every_version_and_change(self, owner_client, owner):
        belief = remember(owner, "User drives a BMW X3.")
        new = belief_correct(
            principal=owner,
            belief_id=belief.public_id,
            expected_revision=1,
            statement="User drives a Volvo XC60.",
        )

        response = owner_client.get(memory_url(belief, "history"))

        assert response.status_code == 200
        assert [v.pk for v, _ in response.context["versions"]] == [belief.pk, new.pk]
        assert [c.action for c in response.context["changes"]] == [
            "remembered",
            "corrected",
            "superseded",
        ]
        body = response.content.decode()
        assert "User drives a BMW X3." in body
        assert "User drives a Volvo XC60." in body

    def test_the_history_of_an_erased_memory_shows_no_text(self, owner_client, owner):
        belief = remember(owner, "User's locker number is 1234.")
        owner_client.post(memory_url(belief, "delete"), {"expected_revision": 1})

        response = owner_client.get(memory_url(belief, "history"))

        assert response.status_code == 200
        assert "1234" not in response.content.decode()
        assert [c.action for c in response.context["changes"]] == ["remembered", "deleted"]


@pytest.mark.parametrize("page", ["change", "history", "delete", "correct"])
def test_every_memory_page_renders_for_an_erased_memory(owner_client, owner, page):
    belief = remember(owner, "User's locker number is 1234.")
    owner_client.post(memory_url(belief, "delete"), {"expected_revision": 1})

    response = owner_client.get(memory_url(belief, page))

    assert response.status_code == 200
    assert "1234" not in response.content.decode()


def test_no_message_carries_memory_text(owner_client, owner):
    # Messages travel in a cookie (signed, not encrypted) and outlive erasure there.
    belief = formed(owner, "User lives in Porto.")
    change_elsewhere(owner, belief)
    stale = owner_client.post(memory_url(belief, "confirm"), {"expected_revision": 1})
    fresh = owner_client.post(memory_url(belief, "confirm"), {"expected_revision": 2})

    for response in (stale, fresh):
        sent = CookieStorage(HttpRequest())._decode(response.cookies["messages"].value)
        text = " ".join(message.message for message in sent)
        assert "the memory" in text and "Porto" not in text
