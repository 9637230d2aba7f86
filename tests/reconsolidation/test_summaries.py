"""Lossless related summaries: every claim attributed, nothing uncertain compressed away."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from common.principal import principal_context
from core.errors import ReverieError
from memory.models import Belief
from memory.services.beliefs import belief_correct, belief_delete, belief_reject
from reconsolidation.models import (
    ClaimSupport,
    DerivedMemory,
    Lineage,
    Operation,
    SummaryClaim,
    Suppression,
)
from reconsolidation.planners.summaries import (
    SUMMARY_MAX_CLAIMS,
    claim_fingerprint,
    plan_summaries,
)
from reconsolidation.planning import SourceView, suppression_fingerprint
from reconsolidation.selectors.sources import source_views
from reconsolidation.selectors.summaries import summary_detail
from reconsolidation.services.operations import Outcome, operation_apply
from reconsolidation.services.owner_actions import derived_delete, derived_reject
from reconsolidation.services.passes import reconsolidation_pass
from tests.concurrency import race
from tests.memory.helpers import conversation, remember, say

WATCH = "device:apple-watch"
WATCH_CLAIMS = (
    "User owns an Apple Watch.",
    "User wears the watch on runs.",
    "User charges the watch at night.",
)
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def view(pk, statement, **fields):
    values = {
        "pk": pk,
        "public_id": f"id-{pk}",
        "revision": 1,
        "type": "ownership",
        "subject": WATCH,
        "statement": statement,
        "polarity": "positive",
        "scope": "principal",
        "sensitivity": "normal",
        "portability": "portable",
        "confidence": 0.9,
        "valid_from": None,
        "valid_until": None,
        "evidence_at": EPOCH + timedelta(days=pk),
    }
    return SourceView(**{**values, **fields})


def watch_views(*extra):
    return [view(pk, s) for pk, s in enumerate(WATCH_CLAIMS, start=1)] + list(extra)


def claims_of(plan):
    return [(claim.statement, sorted(claim.belief_ids), claim.uncertain) for claim in plan.claims]


# Planner


def test_a_claim_is_attributed_to_every_original_that_states_it():
    restated = view(4, "user owns apple watch!", evidence_at=EPOCH)

    (plan,) = plan_summaries(watch_views(restated))

    assert plan.kind == "summary"
    assert claims_of(plan) == [
        # The restatement has the earliest evidence, so its wording leads.
        ("user owns apple watch!", [1, 4], False),
        ("User wears the watch on runs.", [2], False),
        ("User charges the watch at night.", [3], False),
    ]
    assert plan.belief_ids == {1, 2, 3, 4}
    assert plan.omitted == ()


def test_planning_is_deterministic_whatever_the_input_order():
    views = watch_views(view(4, "User owns an Apple Watch"))

    assert plan_summaries(views) == plan_summaries(list(reversed(views)))


def test_a_contradiction_is_kept_on_both_sides_and_marked_uncertain():
    sold = view(4, "User sold the Apple Watch.", polarity="negative")

    (plan,) = plan_summaries(watch_views(sold))

    assert [c[2] for c in claims_of(plan)] == [True, True, True, True]
    assert {claim.polarity for claim in plan.claims} == {"positive", "negative"}


def test_a_claim_resting_on_a_provisional_original_is_uncertain():
    views = watch_views()
    views[1] = replace(views[1], status="provisional")

    (plan,) = plan_summaries(views)

    assert [c[2] for c in claims_of(plan)] == [False, True, False]


def test_claims_over_the_cap_are_recorded_as_omitted_inputs():
    views = [view(pk, f"User owns watch strap number {pk}.") for pk in range(1, 16)]

    (plan,) = plan_summaries(views)

    assert len(plan.claims) == SUMMARY_MAX_CLAIMS
    assert [sorted(claim.belief_ids) for claim in plan.omitted] == [[13], [14], [15]]
    assert plan.belief_ids == set(range(1, 16))


def test_the_cap_never_drops_one_side_of_a_contradiction():
    views = [view(pk, f"User owns watch strap number {pk}.") for pk in range(1, 16)]
    views.append(view(16, "User owns no watch strap at all.", polarity="negative"))

    (plan,) = plan_summaries(views)

    assert len(plan.claims) == SUMMARY_MAX_CLAIMS
    assert plan.claims[-1].polarity == "negative"
    assert all(claim.uncertain for claim in plan.claims)
    assert {pk for claim in plan.omitted for pk in claim.belief_ids} == {12, 13, 14, 15}


def test_different_subjects_or_scopes_are_never_summarised_together():
    views = [
        view(1, "User owns an Apple Watch."),
        view(2, "User wears the watch on runs."),
        view(3, "User charges the watch at night.", subject="device:pixel-watch"),
        view(4, "User charges the watch at night.", scope="assistant:coach"),
        view(5, "User likes the watch face.", scope="assistant:coach"),
        view(6, "User lost the watch once.", scope="assistant:coach"),
    ]

    (plan,) = plan_summaries(views)

    assert (plan.subject, plan.scope, plan.belief_ids) == (WATCH, "assistant:coach", {4, 5, 6})


def test_no_summary_below_the_minimum_of_distinct_claims():
    views = [
        view(1, "User owns an Apple Watch."),
        view(2, "user owns the apple watch"),
        view(3, "User wears the watch on runs."),
        view(4, "Sold.", subject="topic:general"),
        view(5, "Kept.", subject="topic:general"),
        view(6, "Lost.", subject="topic:general"),
    ]

    assert plan_summaries(views) == []


def test_claim_fingerprints_hold_no_prose_and_survive_restating():
    first = claim_fingerprint(WATCH, "ownership", "positive", "User owns an Apple Watch.")

    assert first == claim_fingerprint(WATCH, "ownership", "positive", "user owns apple watch!")
    assert first != claim_fingerprint(WATCH, "ownership", "negative", "User owns an Apple Watch.")
    assert len(first) == 64 and "watch" not in first
    (plan,) = plan_summaries(watch_views())
    assert suppression_fingerprint(plan) != suppression_fingerprint(replace(plan, scope="other"))


# Applying


def watch_summary(owner, *extra, **fields):
    """Three watch claims from messages of known times, plus ``extra`` statements."""
    session, _ = conversation(owner)
    beliefs = []
    for index, statement in enumerate(WATCH_CLAIMS + extra):
        message = say(owner, session, statement, occurred_at=EPOCH + timedelta(days=index))
        beliefs.append(
            remember(owner, statement, subject=WATCH, type="ownership", sources=[message], **fields)
        )
    return beliefs


def live_views(owner):
    with principal_context(owner):
        return source_views(owner)


def summarise(owner):
    (plan,) = plan_summaries(live_views(owner))
    return operation_apply(principal=owner, plan=plan)


def summaries(owner, **filters):
    with principal_context(owner):
        return list(DerivedMemory.objects.filter(owner=owner, kind="summary", **filters))


def test_a_summary_is_written_with_its_claims_supports_and_lineage(owner):
    owns, wears, charges = watch_summary(owner)
    restated = remember(owner, "user owns apple watch", subject=WATCH, type="ownership")

    assert summarise(owner) == Outcome.APPLIED

    (summary,) = summaries(owner)
    assert (summary.kind, summary.status, summary.authority) == ("summary", "active", "derived")
    assert summary.statement == (
        "About Apple Watch: User owns an Apple Watch; User wears the watch on runs; "
        "User charges the watch at night."
    )
    with principal_context(owner):
        claims = list(summary.claims.order_by("position"))
        assert [(c.position, c.statement, c.uncertain) for c in claims] == [
            (1, "User owns an Apple Watch.", False),
            (2, "User wears the watch on runs.", False),
            (3, "User charges the watch at night.", False),
        ]
        assert [
            sorted(ClaimSupport.objects.filter(claim=c).values_list("belief_id", flat=True))
            for c in claims
        ] == [sorted([owns.pk, restated.pk]), [wears.pk], [charges.pk]]
        assert sorted(summary.lineage.values_list("belief_id", "role")) == sorted(
            [(b.pk, "source") for b in (owns, wears, charges, restated)]
        )
        assert Operation.objects.get().kind == "summary"


def test_claims_over_the_cap_become_omitted_lineage(owner):
    extra = tuple(f"User owns watch strap number {n}." for n in range(10))
    beliefs = watch_summary(owner, *extra)

    summarise(owner)

    (summary,) = summaries(owner)
    assert summary.statement.endswith("(1 more claim omitted.)")
    with principal_context(owner):
        assert summary.claims.count() == SUMMARY_MAX_CLAIMS
        assert list(summary.lineage.filter(role="omitted").values_list("belief_id", flat=True)) == [
            beliefs[-1].pk
        ]


def test_a_summary_never_raises_confidence_widens_visibility_or_resets_evidence(owner):
    beliefs = watch_summary(owner)
    with principal_context(owner):
        Belief.objects.filter(pk=beliefs[1].pk).update(confidence=0.4, sensitivity="personal")
        Belief.objects.filter(pk=beliefs[2].pk).update(portability="local")

    summarise(owner)

    (summary,) = summaries(owner)
    assert summary.confidence == 0.4
    assert (summary.sensitivity, summary.portability) == ("personal", "local")
    assert summary.evidence_at == EPOCH + timedelta(days=2)  # copied, not the time of writing
    assert summary.authority == "derived"


def test_uncertainty_is_written_into_the_claims_and_the_statement(owner):
    beliefs = watch_summary(owner)
    remember(owner, "User no longer owns an Apple Watch.", subject=WATCH, polarity="negative")
    with principal_context(owner):
        Belief.objects.filter(pk=beliefs[1].pk).update(status="provisional")

    summarise(owner)

    (summary,) = summaries(owner)
    with principal_context(owner):
        assert list(summary.claims.order_by("position").values_list("polarity", "uncertain")) == [
            ("positive", True),
            ("positive", True),
            ("positive", True),
            ("negative", True),
        ]
    assert summary.statement.count("(uncertain)") == 4


def test_an_omitted_input_also_restricts_the_summary(owner):
    extra = tuple(f"User owns watch strap number {n}." for n in range(10))
    beliefs = watch_summary(owner, *extra)
    with principal_context(owner):
        Belief.objects.filter(pk=beliefs[-1].pk).update(sensitivity="sensitive")

    summarise(owner)

    assert summaries(owner)[0].sensitivity == "sensitive"


def test_applying_the_same_summary_again_changes_nothing(owner):
    watch_summary(owner)
    summarise(owner)

    assert summarise(owner) == Outcome.ALREADY_APPLIED
    assert len(summaries(owner)) == 1


def test_a_new_claim_regroups_the_summary(owner):
    watch_summary(owner)
    summarise(owner)
    remember(owner, "User lost the watch once.", subject=WATCH, type="ownership")

    assert summarise(owner) == Outcome.APPLIED

    old, new = sorted(summaries(owner), key=lambda d: d.pk)
    assert (old.status, new.status) == ("invalidated", "active")
    with principal_context(owner):
        assert old.operation.invalidation_reason == "regrouped"
        assert new.claims.count() == 4


@pytest.mark.parametrize("which", ["included", "omitted"])
@pytest.mark.parametrize("change", ["correct", "delete"])
def test_changing_any_source_invalidates_the_summary_in_the_same_transaction(owner, which, change):
    extra = tuple(f"User owns watch strap number {n}." for n in range(10))
    beliefs = watch_summary(owner, *extra)
    summarise(owner)
    changed = beliefs[0] if which == "included" else beliefs[-1]

    if change == "correct":
        belief_correct(
            principal=owner,
            belief_id=changed.public_id,
            expected_revision=1,
            statement="User owns a Garmin watch.",
        )
    else:
        belief_delete(principal=owner, belief_id=changed.public_id, expected_revision=1)

    (summary,) = summaries(owner)
    assert summary.status == "invalidated"
    with principal_context(owner):
        assert summary.operation.invalidation_reason == "source_changed"


def test_a_deleted_source_leaves_no_text_in_any_derived_table(owner):
    beliefs = watch_summary(owner, "User named the watch Pebblebrook.")
    summarise(owner)

    belief_delete(principal=owner, belief_id=beliefs[-1].public_id, expected_revision=1)

    with principal_context(owner):
        for model in (Operation, DerivedMemory, Lineage, SummaryClaim, ClaimSupport):
            for row in model.objects.filter(owner=owner).values():
                assert not any(
                    isinstance(value, str) and "pebblebrook" in value.lower()
                    for value in row.values()
                ), (model.__name__, row)
        assert not SummaryClaim.objects.exclude(statement="").exists()


def test_a_fenced_claim_is_not_restated_by_a_summary(owner):
    session, (message,) = conversation(owner, "I got an Apple Watch")
    erased = remember(owner, WATCH_CLAIMS[0], subject=WATCH, type="ownership", sources=[message])
    belief_delete(principal=owner, belief_id=erased.public_id, expected_revision=1)
    remember(owner, WATCH_CLAIMS[0], subject=WATCH, type="ownership", sources=[message])
    for statement in WATCH_CLAIMS[1:]:
        remember(owner, statement, subject=WATCH, type="ownership")

    assert summarise(owner) == Outcome.FENCED
    assert summaries(owner) == []


@pytest.mark.parametrize("action", [derived_reject, derived_delete])
def test_rejection_suppresses_each_claim_and_erases_the_copies(owner, action):
    watch_summary(owner)
    summarise(owner)
    (summary,) = summaries(owner)

    action(principal=owner, derived_id=summary.public_id, expected_revision=1)

    with principal_context(owner):
        fingerprints = set(Suppression.objects.values_list("fingerprint", flat=True))
        assert not SummaryClaim.objects.exclude(statement="").exists()
    assert {
        claim_fingerprint(WATCH, "ownership", "positive", s) for s in WATCH_CLAIMS
    } <= fingerprints
    assert summaries(owner)[0].statement == ""
    # An equivalent restatement plus one new claim is too little to summarise again.
    remember(owner, "user owns the apple watch!", subject=WATCH, type="ownership")
    remember(owner, "User lost the watch once.", subject=WATCH, type="ownership")
    assert summarise(owner) == Outcome.SUPPRESSED
    assert summaries(owner, status="active") == []


def test_rejected_claims_are_left_out_of_a_later_summary(owner):
    watch_summary(owner)
    summarise(owner)
    derived_reject(principal=owner, derived_id=summaries(owner)[0].public_id, expected_revision=1)
    new = ("User lost the watch once.", "User likes the watch face.", "User swims with it.")
    for statement in new:
        remember(owner, statement, subject=WATCH, type="ownership")

    assert summarise(owner) == Outcome.APPLIED

    (summary,) = summaries(owner, status="active")
    with principal_context(owner):
        assert list(summary.claims.order_by("position").values_list("statement", flat=True)) == [
            *new
        ]
        assert summary.lineage.filter(role="omitted").count() == 3
    assert summary.statement.endswith("(3 more claims omitted.)")


# The pass


def ungrounded_watch(owner):
    for statement in WATCH_CLAIMS:
        remember(owner, statement, subject=WATCH, type="ownership")


def test_a_pass_forms_a_summary_and_a_second_pass_leaves_it_alone(owner):
    ungrounded_watch(owner)
    remember(owner, "User owns a Kindle.", subject="device:kindle", type="ownership")

    report = reconsolidation_pass(principal=owner)
    again = reconsolidation_pass(principal=owner)

    assert report.outcomes == {"applied": 1}
    assert again.outcomes in ({}, {"already_applied": 1})
    (summary,) = summaries(owner)
    assert (summary.subject, summary.status) == (WATCH, "active")


def test_a_pass_resummarises_a_subject_when_a_belief_of_it_is_added(owner):
    ungrounded_watch(owner)
    reconsolidation_pass(principal=owner)
    remember(owner, "User lost the watch once.", subject=WATCH, type="ownership")

    report = reconsolidation_pass(principal=owner, slice_size=1)

    assert report.outcomes == {"applied": 1}
    (summary,) = summaries(owner, status="active")
    with principal_context(owner):
        assert summary.claims.count() == 4


def test_a_full_scan_reads_a_summarised_subject_once(owner):
    for statement in WATCH_CLAIMS + ("User dropped the watch once.", "User likes the watch face."):
        remember(owner, statement, subject=WATCH, type="ownership")

    reads, completed = [], False
    while not completed:
        report = reconsolidation_pass(principal=owner, slice_size=1)
        reads.append(report.read)
        completed = report.full_scan_completed

    # Each slice holds one claim key; only the first reads the whole subject,
    # and the last finds the scan's end.
    assert reads == [5, 1, 1, 1, 1, 0]
    assert len(summaries(owner)) == 1


# Reading a summary


def test_summary_detail_shows_each_claim_with_its_current_originals(owner):
    extra = tuple(f"User owns watch strap number {n}." for n in range(10))
    beliefs = watch_summary(owner, *extra)
    summarise(owner)
    (summary,) = summaries(owner)
    belief_reject(principal=owner, belief_id=beliefs[1].public_id, expected_revision=1)

    detail = summary_detail(owner, summary.public_id)

    assert [c["position"] for c in detail["claims"]] == list(range(1, 13))
    first, second = detail["claims"][:2]
    assert first["supports"] == [
        {
            "belief": str(beliefs[0].public_id),
            "read_revision": 1,
            "status": "active",
            "revision": 1,
            "statement": WATCH_CLAIMS[0],
            "tombstone": False,
        }
    ]
    assert [(s["status"], s["revision"]) for s in second["supports"]] == [("rejected", 2)]
    assert [o["belief"] for o in detail["omitted"]] == [str(beliefs[-1].public_id)]


def test_summary_detail_of_another_owners_summary_is_not_found(owner, other_owner):
    watch_summary(owner)
    summarise(owner)
    (summary,) = summaries(owner)

    with pytest.raises(ReverieError) as error:
        summary_detail(other_owner, summary.public_id)

    assert error.value.code == "not_found"
    assert summary_detail(owner, summary.public_id)["id"] == str(summary.public_id)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_the_same_summary_apply_it_once(owner):
    watch_summary(owner)
    (plan,) = plan_summaries(live_views(owner))
    outcomes = race(lambda: operation_apply(principal=owner, plan=plan))

    assert sorted(outcomes) == [Outcome.ALREADY_APPLIED, Outcome.APPLIED]
    assert len(summaries(owner)) == 1
    with principal_context(owner):
        assert SummaryClaim.objects.filter(owner=owner).count() == len(WATCH_CLAIMS)
