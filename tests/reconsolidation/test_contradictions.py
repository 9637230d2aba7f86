"""Live memories of one subject that contradict each other get a notice: by their polarity,
by a negation in their words, or by predicates that contrast, over the same object."""

import pytest

from common.principal import principal_context
from reconsolidation import planning
from reconsolidation.models import DerivedMemory
from reconsolidation.planning import plan_notices
from reconsolidation.services import passes
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import remember
from tests.reconsolidation.test_entity_summary_planning import view


def notices(*statements, subject="topic:x", polarities=None):
    polarities = polarities or ["positive"] * len(statements)
    views = [
        view(pk, subject, statement, polarity=polarity)
        for pk, (statement, polarity) in enumerate(zip(statements, polarities, strict=True), 1)
    ]
    return [sorted(plan.belief_ids) for plan in plan_notices(views)]


@pytest.mark.parametrize(
    "first, second",
    [
        ("User likes coffee.", "User does not like coffee."),
        ("User likes coffee.", "User doesn't like coffee anymore."),
        ("User owns a red bicycle.", "User sold the red bicycle."),
        ("User trusts the family doctor.", "User distrusts the family doctor."),
        ("User likes jazz.", "User dislikes jazz."),
        ("User works at the animal shelter.", "User volunteers at the animal shelter."),
        ("User loves olives.", "User hates olives."),
        ("User joined the chess club.", "User left the chess club."),
        ("User bought a standing desk.", "User returned the standing desk."),
        ("User started running.", "User stopped running."),
    ],
)
def test_a_negated_or_contrasting_claim_on_the_same_object_is_a_contradiction(first, second):
    assert notices(first, second) == [[1, 2]]


@pytest.mark.parametrize(
    "first, second",
    [
        # Two things the owner likes, or a claim and its restatement.
        ("User likes coffee.", "User likes tea."),
        ("User likes coffee.", "User drinks coffee every morning."),
        ("User owns a red bicycle.", "User owns the red bicycle."),
        # Both say the owner has it no longer.
        ("User no longer owns the red bicycle.", "User sold the red bicycle."),
        # A denial of something else.
        ("User does not like tea.", "User likes coffee."),
    ],
)
def test_claims_that_agree_or_are_about_different_things_get_no_notice(first, second):
    assert notices(first, second) == []


def test_opposite_polarities_of_one_subject_still_contradict():
    assert notices(
        "User owns a BMW X3.", "User owns a BMW X3.", polarities=["positive", "negative"]
    ) == [[1, 2]]


def test_a_pass_notices_a_denial_written_with_positive_polarity(owner):
    likes = remember(owner, "User likes coffee.", subject="food:coffee")
    denies = remember(owner, "User does not like coffee.", subject="food:coffee")

    reconsolidation_pass(principal=owner)

    with principal_context(owner):
        (notice,) = DerivedMemory.objects.filter(owner=owner, kind="uncertainty_notice")
        assert set(notice.lineage.values_list("belief_id", flat=True)) == {likes.pk, denies.pk}


def test_a_subject_that_may_turn_but_holds_no_contradiction_is_not_read_as_plan_input(
    owner, monkeypatch
):
    # A negated claim puts its subject up for a notice; only a subject that does
    # contradict itself is read whole as what a plan takes.
    remember(owner, "User does not like tea.", subject="food:tea")
    remember(owner, "User drinks tea at night.", subject="food:tea")
    likes = remember(owner, "User likes coffee.", subject="food:coffee")
    denies = remember(owner, "User does not like coffee.", subject="food:coffee")
    read_whole = []
    views = passes.source_views

    def source_views(principal, *conditions, **lookup):
        read_whole.extend(lookup.get("subject__in", ()))
        return views(principal, *conditions, **lookup)

    monkeypatch.setattr(passes, "source_views", source_views)

    report = reconsolidation_pass(principal=owner)

    assert read_whole == ["food:coffee"]
    assert report.read == 4
    with principal_context(owner):
        (notice,) = DerivedMemory.objects.filter(owner=owner, kind="uncertainty_notice")
        assert set(notice.lineage.values_list("belief_id", flat=True)) == {likes.pk, denies.pk}


def test_a_consistent_subject_is_weighed_again_only_once_it_changed(
    owner, other_owner, monkeypatch
):
    # A popular subject holds a claim that may turn another in most slices of a scan.
    remember(owner, "User does not like tea.", subject="food:tea")
    remember(owner, "User drinks tea at night.", subject="food:tea")
    remember(other_owner, "User does not like tea.", subject="food:tea")
    remember(other_owner, "User drinks tea at night.", subject="food:tea")
    weighed = []
    rows = passes.claim_rows

    def claim_rows(principal, **lookup):
        weighed.append((principal.pk, sorted(lookup["subject__in"])))
        return rows(principal, **lookup)

    monkeypatch.setattr(passes, "claim_rows", claim_rows)

    def contested(principal):
        with principal_context(principal):
            views = passes.source_views(principal, subject="food:tea")
            return passes._contested_views(principal, views)[1]

    assert contested(owner) == []
    assert contested(owner) == []
    assert contested(other_owner) == []
    assert weighed == [(owner.pk, ["food:tea"]), (other_owner.pk, ["food:tea"])]

    likes = remember(owner, "User likes tea.", subject="food:tea")

    assert likes.pk in {view.pk for view in contested(owner)}
    assert weighed[-1] == (owner.pk, ["food:tea"])


def test_a_subject_weighed_again_is_not_read_again(monkeypatch):
    # A pass weighs a popular subject in most slices: its claims are read once.
    group = [
        view(pk, "food:coffee", statement)
        for pk, statement in enumerate(
            ["User likes coffee.", "User drinks coffee daily.", "User likes coffee."], 1
        )
    ]
    read = []
    parts = planning.claim_parts

    def claim_parts(statement):
        read.append(statement)
        return parts(statement)

    monkeypatch.setattr(planning, "claim_parts", claim_parts)
    planning._contradicting.cache_clear()

    assert not planning.contradicts(group)
    assert not planning.contradicts(list(reversed(group)))
    assert not planning.contradicts(group[:2])

    assert sorted(read) == ["User drinks coffee daily.", "User likes coffee."]
    assert planning.contradicts([*group, view(4, "food:coffee", "User no longer likes coffee.")])
