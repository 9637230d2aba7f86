from datetime import timedelta

import pytest
from django.utils import timezone

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import Authority, BeliefStatus, BeliefType
from memory.models import AuditRecord, Belief, BeliefSource, DeletionFence
from memory.selectors.beliefs import belief_history, belief_list
from memory.services.beliefs import (
    belief_confirm,
    belief_correct,
    belief_delete,
    belief_reject,
    belief_remember,
)
from memory.text import claim_fingerprint

from .helpers import conversation, remember


def reload(principal, belief):
    with principal_context(principal):
        return Belief.objects.get(pk=belief.pk)


def live(principal):
    with principal_context(principal):
        return list(belief_list(principal=principal, statuses=["active", "provisional"]))


def make_provisional(principal, belief):
    """Stand in for formation, which arrives later: an inferred, unconfirmed belief."""
    with principal_context(principal):
        Belief.objects.filter(pk=belief.pk).update(
            status=BeliefStatus.PROVISIONAL, authority=Authority.INFERRED, confidence=0.5
        )
    return reload(principal, belief)


class TestRemember:
    def test_an_explicit_memory_is_active_with_high_confidence(self, owner):
        belief = remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")

        assert belief.status == BeliefStatus.ACTIVE
        assert belief.authority == Authority.EXPLICIT
        assert belief.confidence == 0.95
        assert belief.revision == 1
        assert belief.fingerprint == claim_fingerprint(
            "device:apple-watch", "User owns an Apple Watch."
        )

    def test_it_keeps_its_sources_with_excerpts(self, owner):
        _, (message,) = conversation(owner, "I just got an Apple Watch.")

        belief = remember(owner, "User owns an Apple Watch.", sources=[message])

        with principal_context(owner):
            source = BeliefSource.objects.get(belief=belief)
        assert source.event_id == message.pk
        assert source.excerpt == "I just got an Apple Watch."
        assert belief.evidence_at == message.occurred_at

    def test_without_a_subject_it_derives_a_topic_key(self, owner):
        belief = remember(owner, "My favourite tea is genmaicha.")

        assert belief.subject == "topic:favourite-tea-genmaicha"

    def test_remembering_the_same_claim_twice_returns_the_first(self, owner):
        first = remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")
        again = remember(owner, "user owns an apple watch", subject="device:apple-watch")

        assert again.pk == first.pk
        assert len(live(owner)) == 1

    def test_an_explicit_memory_supersedes_an_equal_inferred_one(self, owner):
        inferred = make_provisional(
            owner, remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")
        )

        explicit = remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")

        assert explicit.pk != inferred.pk
        assert explicit.supersedes_id == inferred.pk
        assert reload(owner, inferred).status == BeliefStatus.SUPERSEDED
        assert live(owner) == [explicit]

    @pytest.mark.parametrize(
        ("fields", "field"),
        [
            ({"statement": ""}, "statement"),
            ({"statement": "x" * 2001}, "statement"),
            ({"subject": "Apple Watch"}, "subject"),
            ({"type": "opinion"}, "type"),
            ({"confidence": 1.5}, "confidence"),
            ({"confidence": "high"}, "confidence"),
            ({"scope": "team"}, "scope"),
            ({"sensitivity": "secret"}, "sensitivity"),
            ({"portability": "global"}, "portability"),
            ({"expires_at": "tomorrow"}, "expires_at"),
            ({"expires_at": "in the past"}, "expires_at"),
            ({"valid_from": "2024-01-01"}, "valid_from"),
            ({"source_event_ids": ["nope"]}, "source_event_ids"),
        ],
    )
    def test_bad_input_is_refused_and_nothing_is_written(self, owner, fields, field):
        if fields.get("expires_at") == "in the past":
            fields = {"expires_at": timezone.now() - timedelta(days=1)}
        arguments = {"statement": "User likes tea.", **fields}

        with pytest.raises(ReverieError) as error:
            belief_remember(principal=owner, **arguments)

        assert (error.value.code, error.value.details["field"]) == ("validation_error", field)
        with principal_context(owner):
            assert not Belief.objects.exists()
            assert not AuditRecord.objects.exists()

    def test_another_owners_message_cannot_be_a_source(self, owner, other_owner):
        _, (theirs,) = conversation(other_owner, "I have a secret.")

        with pytest.raises(ReverieError) as error:
            remember(owner, "User has a secret.", sources=[theirs])

        assert error.value.code == "not_found"
        assert error.value.details["missing"] == [str(theirs.public_id)]
        assert live(owner) == []


class TestConfirmAndReject:
    def test_confirming_makes_a_provisional_memory_active(self, owner):
        belief = make_provisional(owner, remember(owner, "User likes jazz."))

        confirmed = belief_confirm(
            principal=owner, belief_id=belief.public_id, expected_revision=belief.revision
        )

        assert confirmed.status == BeliefStatus.ACTIVE
        assert confirmed.revision == belief.revision + 1

    def test_a_confirmed_memory_is_the_owners_own(self, owner):
        # Assistants read authority and confidence: once the owner has confirmed a
        # memory it is theirs, as sure as one they stated.
        belief = make_provisional(owner, remember(owner, "User likes jazz."))

        belief_confirm(
            principal=owner, belief_id=belief.public_id, expected_revision=belief.revision
        )

        stored = reload(owner, belief)
        assert (stored.authority, stored.confidence) == (Authority.EXPLICIT, 0.95)
        assert not stored.needs_review

    def test_confirming_keeps_a_higher_confidence(self, owner):
        belief = make_provisional(owner, remember(owner, "User likes jazz."))
        with principal_context(owner):
            Belief.objects.filter(pk=belief.pk).update(confidence=0.99)

        belief_confirm(
            principal=owner, belief_id=belief.public_id, expected_revision=belief.revision
        )

        assert reload(owner, belief).confidence == 0.99

    def test_confirming_an_active_reviewed_memory_is_a_conflict(self, owner):
        belief = remember(owner, "User likes jazz.")

        with pytest.raises(ReverieError) as error:
            belief_confirm(principal=owner, belief_id=belief.public_id, expected_revision=1)

        assert error.value.code == "conflict"

    def test_rejecting_retires_the_memory(self, owner):
        belief = make_provisional(owner, remember(owner, "User likes jazz."))

        rejected = belief_reject(
            principal=owner, belief_id=belief.public_id, expected_revision=belief.revision
        )

        assert rejected.status == BeliefStatus.REJECTED
        assert live(owner) == []

    @pytest.mark.parametrize("action", [belief_confirm, belief_reject, belief_delete])
    def test_a_stale_revision_is_a_conflict_and_changes_nothing(self, owner, action):
        belief = make_provisional(owner, remember(owner, "User likes jazz."))

        with pytest.raises(ReverieError) as error:
            action(
                principal=owner, belief_id=belief.public_id, expected_revision=belief.revision - 1
            )

        assert error.value.code == "conflict"
        assert error.value.details["current_revision"] == belief.revision
        unchanged = reload(owner, belief)
        assert (unchanged.status, unchanged.revision) == (belief.status, belief.revision)

    @pytest.mark.parametrize("action", [belief_confirm, belief_reject, belief_delete])
    def test_another_owners_memory_is_not_found(self, owner, other_owner, action):
        theirs = make_provisional(other_owner, remember(other_owner, "User likes jazz."))

        with pytest.raises(ReverieError) as error:
            action(principal=owner, belief_id=theirs.public_id, expected_revision=theirs.revision)

        assert error.value.code == "not_found"
        assert reload(other_owner, theirs).status == BeliefStatus.PROVISIONAL

    def test_a_non_integer_revision_is_a_validation_error(self, owner):
        belief = remember(owner, "User likes jazz.")

        with pytest.raises(ReverieError) as error:
            belief_reject(principal=owner, belief_id=belief.public_id, expected_revision="1")

        assert error.value.code == "validation_error"


class TestCorrect:
    def test_a_correction_is_a_new_memory_superseding_the_old(self, owner):
        old = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        new = belief_correct(
            principal=owner,
            belief_id=old.public_id,
            expected_revision=1,
            statement="User drives a BMW X5.",
        )

        assert new.pk != old.pk
        assert (new.status, new.authority, new.subject) == ("active", "explicit", "vehicle:bmw-x3")
        assert new.supersedes_id == old.pk
        old = reload(owner, old)
        assert (old.status, old.revision) == (BeliefStatus.SUPERSEDED, 2)
        assert old.statement == "User drives a BMW X3."

    def test_a_correction_supersedes_only_the_corrected_subject(self, owner):
        watch = remember(owner, "User owns an Apple Watch.", subject="device:apple-watch")
        car = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        belief_correct(
            principal=owner,
            belief_id=car.public_id,
            expected_revision=1,
            statement="User drives an Audi Q5.",
            subject="vehicle:audi-q5",
        )

        assert reload(owner, watch).status == BeliefStatus.ACTIVE
        assert {b.subject for b in live(owner)} == {"device:apple-watch", "vehicle:audi-q5"}

    def test_restating_the_same_claim_is_not_a_correction(self, owner):
        old = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

        with pytest.raises(ReverieError) as error:
            belief_correct(
                principal=owner,
                belief_id=old.public_id,
                expected_revision=1,
                statement="User drives a BMW X3",
            )

        assert error.value.code == "validation_error"
        assert live(owner) == [old]

    def test_a_stale_correction_is_a_conflict_and_writes_nothing(self, owner):
        old = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")
        belief_correct(
            principal=owner, belief_id=old.public_id, expected_revision=1, statement="A BMW X5."
        )

        with pytest.raises(ReverieError) as error:
            belief_correct(
                principal=owner, belief_id=old.public_id, expected_revision=1, statement="An Audi."
            )

        assert error.value.code == "conflict"
        assert [b.statement for b in live(owner)] == ["A BMW X5."]

    def test_history_lists_every_version_and_change(self, owner):
        first = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")
        second = belief_correct(
            principal=owner, belief_id=first.public_id, expected_revision=1, statement="A BMW X5."
        )
        third = belief_correct(
            principal=owner, belief_id=second.public_id, expected_revision=1, statement="An Audi."
        )

        with principal_context(owner):
            history = belief_history(principal=owner, belief_id=second.public_id)

        assert [v.pk for v in history["versions"]] == [first.pk, second.pk, third.pk]
        assert [(c.belief_id, c.action) for c in history["changes"]] == [
            (first.pk, "remembered"),
            (second.pk, "corrected"),
            (first.pk, "superseded"),
            (third.pk, "corrected"),
            (second.pk, "superseded"),
        ]


class TestDelete:
    def test_deleting_erases_text_and_excerpts_and_leaves_a_fence(self, owner):
        _, (message,) = conversation(owner, "My PIN hint is the cat's name, Miso.")
        belief = remember(owner, "User's PIN hint is Miso.", sources=[message])
        fingerprint = belief.fingerprint

        deleted = belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

        assert (deleted.status, deleted.statement, deleted.subject) == ("deleted", "", "")
        assert deleted.deleted_at is not None
        with principal_context(owner):
            assert BeliefSource.objects.get(belief=belief).excerpt == ""
            fence = DeletionFence.objects.get(belief=belief)
            assert fence.fingerprint == fingerprint
            assert list(fence.events.all()) == [message]
        assert live(owner) == []

    def test_deleting_a_corrected_memory_erases_its_earlier_versions(self, owner):
        first = remember(owner, "User lives at 1 Main St.", subject="place:home")
        second = belief_correct(
            principal=owner, belief_id=first.public_id, expected_revision=1, statement="2 Elm St."
        )

        belief_delete(principal=owner, belief_id=second.public_id, expected_revision=1)

        assert reload(owner, first).statement == ""
        assert reload(owner, first).status == BeliefStatus.DELETED
        with principal_context(owner):
            assert DeletionFence.objects.count() == 2

    def test_deleting_twice_is_a_conflict(self, owner):
        belief = remember(owner, "User likes jazz.")
        belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

        with pytest.raises(ReverieError) as error:
            belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=2)

        assert error.value.code == "conflict"

    def test_every_change_bumps_the_revision_and_is_audited(self, owner):
        belief = make_provisional(
            owner, remember(owner, "User likes jazz.", type=BeliefType.PREFERENCE)
        )
        belief_confirm(principal=owner, belief_id=belief.public_id, expected_revision=1)
        belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=2)

        with principal_context(owner):
            changes = list(
                AuditRecord.objects.filter(belief=belief).values_list(
                    "action", "revision", "from_status", "to_status"
                )
            )
        assert changes == [
            ("remembered", 1, "", "active"),
            ("confirmed", 2, "provisional", "active"),
            ("deleted", 3, "active", "deleted"),
        ]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"statement": "  "}, "statement"),
        ({"subject": "not a subject"}, "subject"),
        ({"polarity": "sideways"}, "polarity"),
        ({"sensitivity": "secret"}, "sensitivity"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(owner, fields, field):
    old = remember(owner, "User drives a BMW X3.", subject="vehicle:bmw-x3")

    with pytest.raises(ReverieError) as error:
        belief_correct(
            principal=owner,
            belief_id=old.public_id,
            expected_revision=1,
            **{"statement": "User drives an Audi.", **fields},
        )

    assert (error.value.code, error.value.details["field"]) == ("validation_error", field)
    assert live(owner) == [old]
    assert reload(owner, old).revision == 1
