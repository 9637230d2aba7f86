"""Applying operations: originals stay intact, derived output never gains, stale plans drop."""

import pytest

from common.principal import principal_context
from memory.models import Belief
from memory.services.beliefs import belief_correct, belief_delete, belief_reject
from reconsolidation.models import DerivedMemory, Lineage, Operation
from reconsolidation.planners.summaries import plan_summaries
from reconsolidation.planning import plan_merges
from reconsolidation.selectors.sources import source_views
from reconsolidation.services import operations
from reconsolidation.services.operations import Outcome, operation_apply, operations_apply
from tests.concurrency import race
from tests.memory.helpers import conversation, remember

WATCH = "device:apple-watch"


def twins(owner, *statements, **fields):
    statements = statements or ("User owns an Apple Watch.", "user owns Apple Watch!")
    return [remember(owner, s, subject=WATCH, type="ownership", **fields) for s in statements]


def plans_for(owner):
    with principal_context(owner):
        views = source_views(owner)
    return sorted(plan_merges(views), key=lambda plan: min(plan.belief_ids))


def plan_for(owner):
    (plan,) = plans_for(owner)
    return plan


def snapshot(owner):
    with principal_context(owner):
        return list(
            Belief.objects.filter(owner=owner)
            .order_by("id")
            .values("id", "status", "revision", "statement", "confidence", "evidence_at")
        )


def derived_of(owner):
    with principal_context(owner):
        return list(DerivedMemory.objects.filter(owner=owner).order_by("id"))


def test_a_merge_is_a_derived_view_and_leaves_every_original_intact(owner):
    _, (message,) = conversation(owner, "I got an Apple Watch")
    first, second = twins(owner, sources=[message])
    before = snapshot(owner)

    outcome = operation_apply(principal=owner, plan=plan_for(owner))

    assert outcome == Outcome.APPLIED
    assert snapshot(owner) == before
    (derived,) = derived_of(owner)
    assert (derived.kind, derived.status, derived.authority) == ("merged", "active", "derived")
    assert derived.statement == "User owns an Apple Watch."
    assert derived.evidence_at == message.occurred_at
    assert derived.confidence == max(first.confidence, second.confidence)
    with principal_context(owner):
        assert sorted(Lineage.objects.values_list("belief_id", "belief_revision")) == [
            (first.pk, 1),
            (second.pk, 1),
        ]
        assert Operation.objects.get().inputs == [
            {"belief": str(first.public_id), "revision": 1},
            {"belief": str(second.public_id), "revision": 1},
        ]


def test_derived_output_takes_the_most_restrictive_portability(owner):
    remember(owner, "User owns an Apple Watch.", subject=WATCH, type="ownership")
    remember(owner, "user owns apple watch", subject=WATCH, type="ownership", portability="local")

    operation_apply(principal=owner, plan=plan_for(owner))

    assert derived_of(owner)[0].portability == "local"


def test_applying_the_same_plan_again_changes_nothing(owner):
    twins(owner)
    plan = plan_for(owner)
    operation_apply(principal=owner, plan=plan)

    outcome = operation_apply(principal=owner, plan=plan)

    assert outcome == Outcome.ALREADY_APPLIED
    with principal_context(owner):
        assert Operation.objects.count() == 1


def test_a_source_changed_since_planning_drops_the_plan(owner):
    first, _ = twins(owner)
    plan = plan_for(owner)
    belief_reject(principal=owner, belief_id=first.public_id, expected_revision=1)

    outcome = operation_apply(principal=owner, plan=plan)

    assert outcome == Outcome.STALE
    assert derived_of(owner) == []


def test_a_stale_plan_does_not_hold_back_the_others_of_its_group(owner):
    watch, _ = twins(owner)
    twins(owner, "User owns a Kindle.", "user owns the kindle")
    plans = plans_for(owner)
    belief_reject(principal=owner, belief_id=watch.public_id, expected_revision=1)

    outcomes = operations_apply(principal=owner, plans=plans)

    assert outcomes == [Outcome.STALE, Outcome.APPLIED]
    assert [d.statement for d in derived_of(owner)] == ["User owns a Kindle."]


def test_a_new_equivalent_memory_regroups_the_merge(owner):
    twins(owner)
    operation_apply(principal=owner, plan=plan_for(owner))
    remember(owner, "User owns the Apple Watch", subject=WATCH, type="ownership")

    outcome = operation_apply(principal=owner, plan=plan_for(owner))

    assert outcome == Outcome.APPLIED
    old, new = derived_of(owner)
    assert (old.status, new.status) == ("invalidated", "active")
    with principal_context(owner):
        assert old.operation.invalidation_reason == "regrouped"
        assert new.lineage.count() == 3


@pytest.mark.parametrize("change", ["correct", "reject"])
def test_changing_a_source_invalidates_the_merge_in_the_same_transaction(owner, change):
    first, _ = twins(owner)
    operation_apply(principal=owner, plan=plan_for(owner))

    if change == "correct":
        belief_correct(
            principal=owner,
            belief_id=first.public_id,
            expected_revision=1,
            statement="User owns an Apple Watch Ultra.",
        )
    else:
        belief_reject(principal=owner, belief_id=first.public_id, expected_revision=1)

    (derived,) = derived_of(owner)
    assert derived.status == "invalidated"
    assert derived.statement == "User owns an Apple Watch."  # kept for the owner's history
    with principal_context(owner):
        operation = Operation.objects.get()
    assert (operation.state, operation.invalidation_reason) == ("invalidated", "source_changed")


def test_a_deleted_source_leaves_no_text_in_any_derived_table(owner):
    first, _ = twins(owner)
    operation_apply(principal=owner, plan=plan_for(owner))

    belief_delete(principal=owner, belief_id=first.public_id, expected_revision=1)

    with principal_context(owner):
        for model in (Operation, DerivedMemory, Lineage):
            for row in model.objects.filter(owner=owner).values():
                assert not any(
                    isinstance(value, str) and "watch" in value.lower() for value in row.values()
                ), (model.__name__, row)


def test_a_fenced_claim_is_not_recreated_from_the_same_messages(owner):
    _, (message,) = conversation(owner, "I got an Apple Watch")
    erased = remember(owner, "User owns an Apple Watch", subject=WATCH, sources=[message])
    belief_delete(principal=owner, belief_id=erased.public_id, expected_revision=1)
    twins(owner, "User owns an Apple Watch.", "user owns apple watch", sources=[message])

    outcome = operation_apply(principal=owner, plan=plan_for(owner))

    assert outcome == Outcome.FENCED
    assert derived_of(owner) == []


def test_a_group_is_read_in_a_fixed_number_of_queries_however_many_plans_it_holds(
    owner, django_assert_num_queries
):
    twins(owner)
    twins(owner, "User owns a Kindle.", "user owns the kindle")
    twins(owner, "User owns a bike.", "user owns the bike!")
    for statement in ("User reads on trains.", "User reads at night.", "User reads novels."):
        remember(owner, statement, subject="hobby:reading")
    merges = plans_for(owner)
    with principal_context(owner):
        (summary,) = plan_summaries(source_views(owner, subject="hobby:reading"))
    # Derived memories to recheck against, so that every read of the group is made.
    operations_apply(principal=owner, plans=[*merges[:2], summary])

    with principal_context(owner):
        # Beliefs, fences, lineage, derived memories, their lineage, suppressions (the
        # sources of beliefs a fence names: none here).
        with django_assert_num_queries(6):
            operations._group_load(owner, merges[:1])
        with django_assert_num_queries(6):
            operations._group_load(owner, merges)
        # And for a summary: the summaries of its subject and their lineage.
        with django_assert_num_queries(8):
            operations._group_load(owner, [*merges, summary])


def test_a_crash_between_planning_and_commit_leaves_nothing_half_applied(owner, monkeypatch):
    twins(owner)
    plan = plan_for(owner)

    def crash(*args, **kwargs):
        raise RuntimeError("worker died")

    monkeypatch.setattr(operations, "rows_insert", crash)  # the lineage write
    with pytest.raises(RuntimeError):
        operation_apply(principal=owner, plan=plan)

    with principal_context(owner):
        assert not Operation.objects.exists()
        assert not DerivedMemory.objects.exists()


def test_one_principals_merge_never_touches_anothers_beliefs(owner, other_owner):
    twins(owner)
    twins(other_owner)
    plan = plan_for(owner)

    operation_apply(principal=other_owner, plan=plan)  # someone else's belief ids

    assert derived_of(owner) == []
    assert derived_of(other_owner) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_the_same_plan_apply_it_once(owner):
    twins(owner)
    plan = plan_for(owner)
    outcomes = race(lambda: operation_apply(principal=owner, plan=plan))

    assert sorted(outcomes) == [Outcome.ALREADY_APPLIED, Outcome.APPLIED]
    with principal_context(owner):
        assert Operation.objects.count() == 1


def test_a_plan_made_under_another_policy_is_refused_at_commit(owner, monkeypatch):
    from reconsolidation import planning

    twins(owner)
    stale = plan_for(owner)
    assert stale.policy_version == "reconsolidation@1"
    # A new policy is deployed between planning and commit.
    monkeypatch.setattr(planning, "POLICY_VERSION", "reconsolidation@2")

    assert operation_apply(principal=owner, plan=stale) == Outcome.POLICY_CHANGED
    assert derived_of(owner) == []
    with principal_context(owner):
        assert not Operation.objects.exists()

    fresh = plan_for(owner)
    assert operation_apply(principal=owner, plan=fresh) == Outcome.APPLIED
    with principal_context(owner):
        assert Operation.objects.get().policy_version == "reconsolidation@2"


def test_only_the_stale_plans_of_a_group_are_refused(owner, monkeypatch):
    from reconsolidation import planning

    twins(owner)
    stale = plan_for(owner)
    monkeypatch.setattr(planning, "POLICY_VERSION", "reconsolidation@2")
    fresh = plan_for(owner)

    assert operations_apply(principal=owner, plans=[stale, fresh]) == [
        Outcome.POLICY_CHANGED,
        Outcome.APPLIED,
    ]
