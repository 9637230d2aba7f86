"""Merge planning: strict equivalence, because a false merge is the worst failure."""

from dataclasses import replace
from datetime import UTC, datetime

from reconsolidation.planning import SourceView, plan_merges, plan_notices, statement_words


def view(pk, statement="User owns an Apple Watch.", **fields):
    values = {
        "pk": pk,
        "public_id": f"id-{pk}",
        "revision": 1,
        "type": "ownership",
        "subject": "device:apple-watch",
        "statement": statement,
        "polarity": "positive",
        "scope": "principal",
        "sensitivity": "normal",
        "portability": "portable",
        "confidence": 0.9,
        "valid_from": None,
        "valid_until": None,
        "evidence_at": None,
    }
    return SourceView(**{**values, **fields})


def groups(views):
    return sorted(sorted(plan.belief_ids) for plan in plan_merges(views))


def test_case_spacing_punctuation_and_articles_do_not_keep_equal_claims_apart():
    views = [
        view(1, "User owns an Apple Watch."),
        view(2, "user owns  Apple Watch!"),
        view(3, "User owns the apple watch"),
    ]

    assert groups(views) == [[1, 2, 3]]


def test_different_claims_are_never_merged():
    base = view(1)
    different = [
        replace(base, pk=2, statement="User owns an Apple Watch Ultra."),
        replace(base, pk=3, statement="Apple Watch owns a user."),
        replace(base, pk=4, polarity="negative"),
        replace(base, pk=5, subject="device:apple-watch-ultra"),
        replace(base, pk=6, scope="assistant:coach"),
        replace(base, pk=7, sensitivity="sensitive"),
        replace(base, pk=8, type="preference"),
        replace(base, pk=9, valid_until=datetime(2026, 1, 1, tzinfo=UTC)),
        replace(base, pk=10, statement="User's sister owns an Apple Watch."),
    ]

    assert groups([base, *different]) == []


def test_word_order_counts():
    views = [
        view(1, "Ann called Bob.", subject="topic:call"),
        view(2, "Bob called Ann.", subject="topic:call"),
    ]

    assert groups(views) == []


def test_each_group_is_planned_once_with_its_sources_in_order():
    views = [view(5), view(2), view(9, "User owns a Kindle.", subject="device:kindle"), view(7)]

    (plan,) = plan_merges(views)

    assert [source.pk for source in plan.sources] == [2, 5, 7]


def test_a_statement_without_words_is_never_merged():
    assert statement_words("...") == ()
    assert groups([view(1, "..."), view(2, "!!")]) == []


def notice_groups(views):
    return sorted(sorted(plan.belief_ids) for plan in plan_notices(views))


def test_both_polarities_of_one_subject_are_a_contradiction():
    views = [
        view(1, "User owns a BMW X3.", subject="vehicle:bmw-x3"),
        view(2, "User does not own a BMW X3.", subject="vehicle:bmw-x3", polarity="negative"),
        view(3, "User owns a Kindle.", subject="device:kindle"),
    ]

    assert notice_groups(views) == [[1, 2]]


def test_different_values_of_a_single_valued_subject_are_a_contradiction():
    views = [
        view(1, "User prefers metric units.", subject="pref:units", type="preference"),
        view(2, "User prefers imperial units.", subject="pref:units", type="preference"),
    ]

    assert notice_groups(views) == [[1, 2]]


def test_different_claims_on_an_ordinary_subject_are_not_a_contradiction():
    views = [
        view(1, "User owns a Kindle.", subject="device:kindle"),
        view(2, "User reads on the Kindle at night.", subject="device:kindle"),
        view(3, "User prefers metric units.", subject="pref:units"),
        view(4, "user prefers metric units", subject="pref:units"),
        view(5, "User owns a BMW X3.", subject="vehicle:bmw", scope="assistant:car"),
        view(6, "User sold the BMW.", subject="vehicle:bmw", polarity="negative"),
    ]

    assert notice_groups(views) == []
