"""Tentative hypotheses: grounded in independent events, never evidence, finite, promoted only
by the owner."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from common.principal import principal_context
from core.errors import ReverieError
from memory.models import AuditRecord, Belief, BeliefSource
from memory.services.beliefs import belief_correct, belief_delete
from memory.services.sessions import session_create
from reconsolidation.models import DerivedMemory, Lineage, Operation, Suppression
from reconsolidation.planners.hypotheses import CONFIDENCE_CAP, plan_hypotheses
from reconsolidation.planning import SourceView, suppression_fingerprint
from reconsolidation.selectors import hypotheses as hypotheses_selectors
from reconsolidation.services.hypotheses import hypotheses_expire, hypothesis_promote
from reconsolidation.services.operations import Outcome, operation_apply
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import remember, say

WATCH = "device:apple-watch"
RUNNING = "topic:running"
T0 = datetime(2026, 3, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=1)
LIFETIME = timedelta(days=30)


def view(pk, subject, statement, **fields):
    defaults = {
        "public_id": f"00000000-0000-0000-0000-{pk:012d}",
        "revision": 1,
        "type": "fact",
        "polarity": "positive",
        "scope": "principal",
        "sensitivity": "normal",
        "portability": "portable",
        "confidence": 0.9,
        "valid_from": None,
        "valid_until": None,
        "evidence_at": T0,
    }
    return SourceView(pk=pk, subject=subject, statement=statement, **{**defaults, **fields})


def grounded(*pairs):
    """{pk: (events, sessions)} from ``(pk, event, session)`` triples."""
    return {pk: (frozenset({event}), frozenset({session})) for pk, event, session in pairs}


def watch_and_run(**run_fields):
    return [
        view(1, WATCH, "User owns an Apple Watch."),
        view(2, RUNNING, "User runs with the Apple Watch every morning.", **run_fields),
    ]


def plan(sources, events, now=NOW):
    return plan_hypotheses(sources, events, now=now, lifetime=LIFETIME)


# The planner


def test_two_subjects_sharing_an_entity_in_independent_sessions_may_be_connected():
    (hypothesis,) = plan(watch_and_run(), grounded((1, 10, 100), (2, 20, 200)))

    assert hypothesis.kind == "hypothesis"
    assert hypothesis.belief_ids == {1, 2}
    assert hypothesis.subjects == (WATCH, RUNNING)
    # Written for people: subjects named as the memories write them, not as keys.
    assert hypothesis.statement == (
        "Apple Watch and running may be connected: memories of both mention Apple Watch."
    )


def test_beliefs_from_the_same_event_are_not_independent():
    assert plan(watch_and_run(), grounded((1, 10, 100), (2, 10, 100))) == []


def test_beliefs_from_one_session_are_not_independent():
    assert plan(watch_and_run(), grounded((1, 10, 100), (2, 11, 100))) == []


def test_a_belief_without_original_events_grounds_nothing():
    assert plan(watch_and_run(), grounded((1, 10, 100))) == []


def test_beliefs_of_different_scopes_are_never_connected():
    sources = watch_and_run(scope="assistant:coach")

    assert plan(sources, grounded((1, 10, 100), (2, 20, 200))) == []


def test_a_subject_is_never_connected_to_itself():
    sources = [
        view(1, WATCH, "User owns an Apple Watch."),
        view(2, WATCH, "The Apple Watch strap broke."),
    ]

    assert plan(sources, grounded((1, 10, 100), (2, 20, 200))) == []


def test_the_entity_must_be_mentioned_as_one_phrase():
    sources = [
        view(1, WATCH, "User owns an Apple Watch."),
        view(2, RUNNING, "User eats an apple and likes to watch races."),
    ]

    assert plan(sources, grounded((1, 10, 100), (2, 20, 200))) == []


def test_only_the_independent_beliefs_of_each_side_are_sources():
    sources = [*watch_and_run(), view(3, RUNNING, "Logs runs on the Apple Watch.")]

    (hypothesis,) = plan(sources, grounded((1, 10, 100), (2, 20, 200), (3, 11, 100)))

    assert hypothesis.belief_ids == {1, 2}


def test_confidence_is_capped_and_no_surer_than_the_weakest_source():
    (strong,) = plan(watch_and_run(), grounded((1, 10, 100), (2, 20, 200)))
    (weak,) = plan(watch_and_run(confidence=0.3), grounded((1, 10, 100), (2, 20, 200)))

    assert (strong.confidence, weak.confidence) == (CONFIDENCE_CAP, 0.3)


def test_the_lifetime_counts_from_the_newest_evidence():
    later = T0 + timedelta(days=3)
    (hypothesis,) = plan(watch_and_run(evidence_at=later), grounded((1, 10, 100), (2, 20, 200)))

    assert (hypothesis.evidence_at, hypothesis.expires_at) == (later, later + LIFETIME)


@pytest.mark.parametrize("field", ["expires_at", "valid_until"])
def test_the_lifetime_ends_no_later_than_a_source(field):
    end = T0 + timedelta(days=5)
    (hypothesis,) = plan(watch_and_run(**{field: end}), grounded((1, 10, 100), (2, 20, 200)))

    assert hypothesis.expires_at == end


def test_a_hypothesis_whose_lifetime_is_over_is_not_planned():
    events = grounded((1, 10, 100), (2, 20, 200))

    assert plan(watch_and_run(), events, now=T0 + LIFETIME) == []
    assert plan(watch_and_run(), events, now=T0 + LIFETIME - timedelta(seconds=1)) != []


def test_the_fingerprint_names_the_pair_of_subjects_and_no_prose():
    events = grounded((1, 10, 100), (2, 20, 200), (3, 30, 300))
    (first,) = plan(watch_and_run(), events)
    (restated,) = plan(
        [view(1, WATCH, "Has an Apple Watch."), view(3, RUNNING, "Apple Watch runs.")], events
    )
    (other,) = plan(
        [
            view(1, WATCH, "Owns an Apple Watch."),
            view(3, "topic:cycling", "Rides with the Apple Watch."),
        ],
        events,
    )

    fingerprint = suppression_fingerprint(first)
    assert fingerprint == suppression_fingerprint(restated)
    assert fingerprint != suppression_fingerprint(other)


# Applying, expiring, promoting


def message(owner, text, *, occurred_at=None):
    """One message, in a session of its own."""
    return say(owner, session_create(principal=owner), text, occurred_at=occurred_at)


def watch_and_run_remembered(owner, *, occurred_at=None, **run_fields):
    watch_message = message(owner, "I got an Apple Watch", occurred_at=occurred_at)
    run_message = message(owner, "I run with my Apple Watch every morning", occurred_at=occurred_at)
    watch = remember(
        owner, "User owns an Apple Watch.", subject=WATCH, type="ownership", sources=[watch_message]
    )
    run = remember(
        owner,
        "User runs with the Apple Watch every morning.",
        subject=RUNNING,
        sources=[run_message],
        **run_fields,
    )
    return watch, run


def hypotheses(owner, **filters):
    with principal_context(owner):
        return list(
            DerivedMemory.objects.filter(owner=owner, kind="hypothesis", **filters).order_by("id")
        )


def originals(owner):
    with principal_context(owner):
        return (
            list(
                Belief.objects.filter(owner=owner)
                .order_by("id")
                .values("id", "status", "revision", "statement", "confidence", "evidence_at")
            ),
            BeliefSource.objects.filter(owner=owner).count(),
            AuditRecord.objects.filter(owner=owner).count(),
        )


def formed(owner):
    reconsolidation_pass(principal=owner)
    (hypothesis,) = hypotheses(owner, status="active")
    return hypothesis


def test_a_pass_connects_subjects_grounded_in_independent_sessions(owner):
    watch, run = watch_and_run_remembered(owner)

    report = reconsolidation_pass(principal=owner)

    assert report.outcomes == {Outcome.APPLIED: 1}
    (hypothesis,) = hypotheses(owner)
    assert (hypothesis.status, hypothesis.authority, hypothesis.subject) == (
        "active",
        "derived",
        WATCH,
    )
    assert "Apple Watch" in hypothesis.statement
    with principal_context(owner):
        assert sorted(Lineage.objects.values_list("belief_id", "belief_revision", "role")) == [
            (watch.pk, 1, "source"),
            (run.pk, 1, "source"),
        ]
        assert Operation.objects.get().kind == "hypothesis"


def test_a_second_pass_does_not_form_it_again(owner):
    watch_and_run_remembered(owner)
    reconsolidation_pass(principal=owner)

    report = reconsolidation_pass(principal=owner)

    assert Outcome.APPLIED not in report.outcomes
    assert len(hypotheses(owner)) == 1


def test_another_owners_memories_are_never_connected(owner, other_owner):
    remember(
        owner,
        "User owns an Apple Watch.",
        subject=WATCH,
        sources=[message(owner, "I got an Apple Watch")],
    )
    remember(
        other_owner,
        "User runs with the Apple Watch every morning.",
        subject=RUNNING,
        sources=[message(other_owner, "I run with my Apple Watch")],
    )

    reconsolidation_pass(principal=owner)
    reconsolidation_pass(principal=other_owner)

    assert hypotheses(owner) == hypotheses(other_owner) == []


def test_one_belief_may_ground_connections_to_several_subjects(owner):
    watch_and_run_remembered(owner)
    reconsolidation_pass(principal=owner)
    remember(
        owner,
        "User cycles with the Apple Watch on weekends.",
        subject="topic:cycling",
        sources=[message(owner, "I cycle with my Apple Watch")],
    )

    report = reconsolidation_pass(principal=owner)

    # The cycling hypothesis, and the summary of what names the Apple Watch.
    assert report.outcomes[Outcome.APPLIED] == 2
    assert sorted(h.statement for h in hypotheses(owner, status="active")) == [
        "Apple Watch and cycling may be connected: memories of both mention Apple Watch.",
        "Apple Watch and running may be connected: memories of both mention Apple Watch.",
    ]


def test_a_hypothesis_is_never_evidence_and_never_widens_or_refreshes_anything(owner):
    watch_and_run_remembered(owner, sensitivity="personal", portability="local", confidence=0.8)
    before = originals(owner)

    hypothesis = formed(owner)

    assert originals(owner) == before
    assert hypothesis.confidence == CONFIDENCE_CAP
    assert (hypothesis.sensitivity, hypothesis.portability) == ("personal", "local")
    with principal_context(owner):
        newest = max(BeliefSource.objects.values_list("event__occurred_at", flat=True))
    assert hypothesis.evidence_at == newest
    assert hypothesis.evidence_at < hypothesis.created_at
    assert hypothesis.expires_at == newest + timedelta(days=30)


def test_a_source_changed_since_planning_drops_the_hypothesis(owner):
    watch, run = watch_and_run_remembered(owner)
    with principal_context(owner):
        views = [
            view(
                b.pk, b.subject, b.statement, public_id=str(b.public_id), evidence_at=b.evidence_at
            )
            for b in Belief.objects.filter(owner=owner).order_by("id")
        ]
    (planned,) = plan_hypotheses(views, grounded((watch.pk, 1, 1), (run.pk, 2, 2)))
    belief_correct(
        principal=owner,
        belief_id=run.public_id,
        expected_revision=1,
        statement="User runs with the Garmin every morning.",
    )

    assert operation_apply(principal=owner, plan=planned) == Outcome.STALE
    assert hypotheses(owner) == []


def test_expiry_ends_only_the_hypotheses_past_their_lifetime(owner):
    watch_and_run_remembered(owner, occurred_at=timezone.now() - timedelta(days=29))
    hypothesis = formed(owner)

    assert hypotheses_expire(principal=owner) == 0
    assert hypotheses_expire(principal=owner, now=hypothesis.expires_at) == 1

    (expired,) = hypotheses(owner)
    assert (expired.status, expired.revision, expired.statement) == (
        "expired",
        2,
        hypothesis.statement,
    )
    with principal_context(owner):
        operation = Operation.objects.get()
    assert (operation.state, operation.invalidation_reason) == ("invalidated", "expired")


def test_each_pass_ends_expired_hypotheses_and_does_not_guess_them_again(owner, monkeypatch):
    watch_and_run_remembered(owner, occurred_at=timezone.now() - timedelta(days=29))
    hypothesis = formed(owner)
    later = hypothesis.expires_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    report = reconsolidation_pass(principal=owner)

    assert report.expired_hypotheses == 1
    assert [h.status for h in hypotheses(owner)] == ["expired"]


def test_promotion_makes_the_connection_a_belief_of_the_owner(owner):
    watch, run = watch_and_run_remembered(owner, sensitivity="personal")
    hypothesis = formed(owner)

    belief = hypothesis_promote(
        principal=owner, derived_id=hypothesis.public_id, expected_revision=1
    )

    assert (belief.authority, belief.status, belief.subject, belief.sensitivity) == (
        "explicit",
        "active",
        WATCH,
        "personal",
    )
    assert belief.statement == "Apple Watch is connected to running."
    with principal_context(owner):
        sources = set(BeliefSource.objects.filter(belief=belief).values_list("event", flat=True))
        grounds = set(
            BeliefSource.objects.filter(belief__in=[watch, run]).values_list("event", flat=True)
        )
        assert Suppression.objects.get().reason == "promoted"
    assert sources == grounds and len(sources) == 2
    (promoted,) = hypotheses(owner)
    assert (promoted.status, promoted.revision) == ("promoted", 2)


def test_promotion_takes_the_owners_own_words_and_is_not_guessed_again(owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)

    belief = hypothesis_promote(
        principal=owner,
        derived_id=hypothesis.public_id,
        expected_revision=1,
        statement="I track my runs with the Apple Watch.",
    )
    reconsolidation_pass(principal=owner)

    assert belief.statement == "I track my runs with the Apple Watch."
    assert hypotheses(owner, status="active") == []


def test_a_promotion_in_the_owners_words_is_labelled_by_them(owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)

    belief = hypothesis_promote(
        principal=owner,
        derived_id=hypothesis.public_id,
        expected_revision=1,
        statement="I wear the Apple Watch to track my epilepsy seizures.",
    )

    assert (belief.sensitivity, belief.portability) == ("sensitive", "local")


def promotion_refused(owner, hypothesis, *, principal=None, expected_revision=1):
    with principal_context(owner):
        beliefs = Belief.objects.filter(owner=owner).count()
    with pytest.raises(ReverieError) as refused:
        hypothesis_promote(
            principal=principal or owner,
            derived_id=hypothesis.public_id,
            expected_revision=expected_revision,
        )
    with principal_context(owner):
        assert Belief.objects.filter(owner=owner).count() == beliefs
    return refused.value.code


def test_promotion_with_a_stale_revision_is_a_conflict(owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)

    assert promotion_refused(owner, hypothesis, expected_revision=2) == "conflict"
    assert hypotheses(owner)[0].status == "active"


def test_another_owners_hypothesis_is_not_found(owner, other_owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)

    assert promotion_refused(owner, hypothesis, principal=other_owner) == "not_found"
    assert hypotheses(owner)[0].status == "active"


def test_an_expired_hypothesis_cannot_be_promoted(owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)
    hypotheses_expire(principal=owner, now=hypothesis.expires_at)

    assert promotion_refused(owner, hypothesis, expected_revision=2) == "conflict"


def test_a_hypothesis_is_promoted_once(owner):
    watch_and_run_remembered(owner)
    hypothesis = formed(owner)
    hypothesis_promote(principal=owner, derived_id=hypothesis.public_id, expected_revision=1)

    assert promotion_refused(owner, hypothesis, expected_revision=2) == "conflict"


def test_only_a_hypothesis_can_be_promoted(owner):
    for statement in ("User owns a Kindle.", "user owns kindle"):
        remember(owner, statement, subject="device:kindle", type="ownership")
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        merged = DerivedMemory.objects.get(owner=owner, kind="merged")

    assert promotion_refused(owner, merged) == "not_found"


def test_correcting_a_source_invalidates_the_hypothesis(owner):
    _, run = watch_and_run_remembered(owner)
    formed(owner)

    belief_correct(
        principal=owner,
        belief_id=run.public_id,
        expected_revision=1,
        statement="User runs with a Garmin every morning.",
    )

    (hypothesis,) = hypotheses(owner)
    assert hypothesis.status == "invalidated"
    with principal_context(owner):
        operation = Operation.objects.get()
    assert (operation.state, operation.invalidation_reason) == ("invalidated", "source_changed")


def derived_text(owner):
    with principal_context(owner):
        return " ".join(
            f"{statement} {subject}"
            for statement, subject in DerivedMemory.objects.filter(owner=owner).values_list(
                "statement", "subject"
            )
        ).casefold()


def test_deleting_a_source_invalidates_the_hypothesis_and_erases_its_text(owner):
    _, run = watch_and_run_remembered(owner)
    formed(owner)
    deleted_words = ["apple", "watch", "running", "runs", "morning"]
    assert any(word in derived_text(owner) for word in deleted_words)

    belief_delete(principal=owner, belief_id=run.public_id, expected_revision=1)

    assert [h.status for h in hypotheses(owner)] == ["invalidated"]
    text = derived_text(owner)
    assert [word for word in deleted_words if word in text] == []


def test_a_subject_is_looked_up_once_a_full_scan_in_the_slice_of_its_smallest_key(
    owner, monkeypatch
):
    watch_and_run_remembered(owner)
    for text in ("User wears the Apple Watch daily.", "User charges the Apple Watch nightly."):
        remember(owner, text, subject=WATCH, type="ownership", sources=[message(owner, text)])
    looked_up = []
    real = hypotheses_selectors.belief_mentions

    def spy(**kwargs):
        looked_up.append(kwargs["exclude_subject"])
        return real(**kwargs)

    monkeypatch.setattr(hypotheses_selectors, "belief_mentions", spy)

    # One claim key per slice: the watch's claims fall in three different slices.
    while not reconsolidation_pass(principal=owner, slice_size=1).full_scan_completed:
        pass

    assert looked_up.count(WATCH) == 1
    assert len(hypotheses(owner, status="active")) == 1


def test_a_hypothesis_whose_sources_hold_no_evidence_at_commit_is_stale(owner):
    # Planned from views that still held evidence; the locked sources hold none.
    watch = remember(owner, "User owns an Apple Watch.", subject=WATCH, type="ownership")
    run = remember(owner, "User runs with the Apple Watch every morning.", subject=RUNNING)
    views = [
        view(b.pk, b.subject, b.statement, public_id=str(b.public_id), evidence_at=T0)
        for b in (watch, run)
    ]
    (planned,) = plan(views, grounded((watch.pk, 1, 1), (run.pk, 2, 2)))

    assert operation_apply(principal=owner, plan=planned) == Outcome.STALE
    assert hypotheses(owner) == []
