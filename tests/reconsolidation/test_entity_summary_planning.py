"""Which shared subjects a pass summarises: pure planning over views of memories."""

from datetime import UTC, datetime, timedelta

from reconsolidation.planners.summaries import plan_entity_summaries
from reconsolidation.planning import SourceView

EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def view(pk, subject, statement, **fields):
    values = {
        "pk": pk,
        "public_id": f"id-{pk}",
        "revision": 1,
        "type": "fact",
        "subject": subject,
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


POTTERY = [
    view(1, "event:pottery-class", "User signed up for a pottery class."),
    view(2, "topic:pottery", "User likes pottery.", type="preference"),
    view(3, "outcome:pottery-project", "User finished another pottery project."),
]
ICE_CREAM = [
    view(11, "event:vegan-ice-cream", "User made vegan ice cream."),
    view(12, "event:friend-ice-cream", "User made their friend some ice cream."),
    view(13, "topic:ice-cream", "User likes ice cream.", type="preference"),
]


def test_memories_of_one_activity_in_different_sessions_are_summarised_together():
    (plan,) = plan_entity_summaries(POTTERY)

    assert plan.subject == "entity:pottery"
    assert [claim.statement for claim in plan.claims] == [v.statement for v in POTTERY]
    assert plan.belief_ids == {1, 2, 3}


def test_a_generic_word_gathers_nothing():
    views = [
        view(1, "event:hiking-trip", "User went on a hiking trip."),
        view(2, "event:business-trip", "User went on a business trip."),
        view(3, "event:trip-beach", "User took a trip to the beach."),
    ]

    assert plan_entity_summaries(views) == []


def test_two_words_naming_the_same_memories_give_one_summary():
    (plan,) = plan_entity_summaries(ICE_CREAM)

    # "cream" and "ice" gather the same three memories: the first name is kept.
    assert plan.subject == "entity:cream"
    assert plan.belief_ids == {11, 12, 13}


def test_a_name_whose_memories_another_name_holds_as_well_is_not_summarised_apart():
    views = [
        view(21, "outcome:first-video-game", "User won their first video game tournament."),
        view(22, "outcome:regional-video-game", "User won a regional video game tournament."),
        view(23, "outcome:big-video-game", "User won a big video game tournament."),
        view(24, "event:game-convention", "User went to a game convention."),
    ]

    (plan,) = plan_entity_summaries(views)

    assert plan.subject == "entity:game"
    assert plan.belief_ids == {21, 22, 23, 24}


def test_only_names_read_whole_are_planned():
    # The selector read every memory of "pottery" but not of another name they share.
    assert plan_entity_summaries(POTTERY, names=frozenset()) == []
    (plan,) = plan_entity_summaries(POTTERY, names=frozenset({"entity:pottery"}))
    assert plan.subject == "entity:pottery"


def test_a_group_an_active_summary_of_another_name_holds_is_not_summarised_again():
    # "ice" sorts before "cream" but "cream" already has its summary over these memories.
    plans = plan_entity_summaries(
        ICE_CREAM,
        names=frozenset({"entity:ice"}),
        summarised={"entity:cream": frozenset({11, 12, 13})},
    )

    assert plans == []
    # A larger group than the active summary's is news, and is summarised.
    larger = ICE_CREAM + [view(14, "outcome:ice-cream-stand", "User opened an ice cream stand.")]
    (plan,) = plan_entity_summaries(
        larger,
        names=frozenset({"entity:ice"}),
        summarised={"entity:cream": frozenset({11, 12, 13})},
    )
    assert plan.subject == "entity:ice"
    assert plan.belief_ids == {11, 12, 13, 14}


def test_two_people_who_share_a_first_name_are_never_summarised_together():
    views = [
        view(31, "person:maya-lopez", "User's sister Maya Lopez lives in Leeds."),
        view(32, "person:maya-chen", "User's colleague Maya Chen reviewed the budget."),
        view(33, "person:maya-lopez", "User went hiking with Maya."),
        view(34, "person:maya-chen", "User's colleague Maya sent the report."),
        view(35, "event:gave-book", "User gave Maya a book."),
    ]

    # "Maya" is in three memories of three subjects, and names two people.
    assert [plan.subject for plan in plan_entity_summaries(views)] == []


def test_a_first_name_alone_names_no_one_in_particular():
    views = [
        view(41, "event:hiking", "User went hiking with Maya."),
        view(42, "event:gave-book", "User gave Maya a book."),
        view(43, "person:maya", "Maya moved to Leeds."),
    ]

    assert plan_entity_summaries(views) == []


def test_memories_that_name_one_person_by_full_name_are_summarised_together():
    views = [
        view(51, "person:maya-lopez", "Maya Lopez is User's sister."),
        view(52, "event:hiking", "User went hiking with Maya Lopez."),
        view(53, "event:gave-book", "User gave Maya Lopez a book."),
        view(54, "person:maya-chen", "Maya Chen is User's colleague."),
    ]

    (plan,) = plan_entity_summaries(views)

    assert plan.subject == "entity:maya-lopez"
    assert plan.belief_ids == {51, 52, 53}
