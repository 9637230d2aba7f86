"""Where a question names a period, recall ranks first the messages said within it."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from common.principal import principal_context
from memory.enums import Sensitivity
from memory.models import Event
from memory.reach import Reach
from memory.selectors.recall import recall
from memory.services.beliefs import belief_delete
from memory.services.erasure import event_erase

from .helpers import conversation, remember, say

MARCH = datetime(2023, 3, 14, 18, 0, tzinfo=UTC)
JUNE = datetime(2023, 6, 14, 18, 0, tzinfo=UTC)
LAKE = "We went camping by the lake."
POND = "We went camping by the pond."


def texts(result):
    return [item.text for item in result.items]


def said(owner, text, at):
    session, _ = conversation(owner, started_at=at)
    return say(owner, session, text, occurred_at=at)


def two_trips(owner, *, lake_at, pond_at, lake_first=True):
    """Two messages the search finds alike for "camping", said at different times."""
    trips = [(LAKE, lake_at), (POND, pond_at)]
    for text, at in trips if lake_first else reversed(trips):
        said(owner, text, at)


@pytest.mark.parametrize("lake_first", [True, False])
@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("When did we go camping in June?", POND),
        ("When did we go camping in March?", LAKE),
        ("Where did we go camping on 14 June 2023?", POND),
        ("Where did we go camping in March 2023?", LAKE),
        ("Where did we go camping the week before 2023-06-20?", POND),
    ],
)
def test_of_two_equal_messages_the_one_said_in_the_period_asked_about_ranks_first(
    owner, lake_first, query, first
):
    two_trips(owner, lake_at=MARCH, pond_at=JUNE, lake_first=lake_first)

    result = recall(principal=owner, query=query, include=["messages"])

    assert texts(result)[0] == first
    assert sorted(texts(result)) == [LAKE, POND]


@pytest.mark.parametrize("lake_first", [True, False])
@pytest.mark.parametrize(
    "query",
    [
        "Where did we go camping?",
        "May I ask where we went camping?",
        "Where did 2023 campers go camping?",
        "Where did we go camping in 2023?",
        "Where did we go camping in December?",
    ],
)
def test_a_question_that_names_no_period_they_differ_in_ranks_as_if_they_were_said_together(
    owner, other_owner, lake_first, query
):
    two_trips(owner, lake_at=MARCH, pond_at=JUNE, lake_first=lake_first)
    two_trips(other_owner, lake_at=JUNE, pond_at=MARCH, lake_first=lake_first)

    mine = recall(principal=owner, query=query, include=["messages"])
    swapped = recall(principal=other_owner, query=query, include=["messages"])

    assert texts(mine) == texts(swapped)
    assert [item.score for item in mine.items] == [item.score for item in swapped.items]


def test_a_period_brings_in_no_message_the_search_would_not_show(owner, other_owner):
    said(owner, LAKE, MARCH)
    erased = said(owner, "We went camping in the hills.", JUNE)
    event_erase(principal=owner, event_id=erased.public_id)
    fenced = said(owner, "We went camping in the woods.", JUNE)
    belief = remember(owner, "User camped in the woods.", sources=[fenced])
    belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)
    hidden = said(owner, "We went camping with the doctor.", JUNE)
    with principal_context(owner):
        Event.objects.filter(pk=hidden.pk).update(sensitivity=Sensitivity.SENSITIVE)
    said(owner, "The weather was mild.", JUNE)
    said(other_owner, "We went camping in June too.", JUNE)

    result = recall(
        principal=owner,
        query="Where did we go camping in June?",
        include=["messages"],
        reach=Reach(include_sensitive=False),
    )

    assert texts(result) == [LAKE]


def test_a_period_brings_in_no_message_older_than_since(owner):
    said(owner, LAKE, datetime(2023, 6, 20, tzinfo=UTC))
    said(owner, POND, JUNE)

    result = recall(
        principal=owner,
        query="camping in June 2023",
        include=["messages"],
        since=datetime(2023, 6, 18, tzinfo=UTC),
    )

    assert texts(result) == [LAKE]


def test_a_messages_day_is_its_day_in_utc(owner):
    two_trips(
        owner,
        # 30 June in UTC, though 1 July where it was said.
        lake_at=datetime(2023, 7, 1, 0, 30, tzinfo=timezone(timedelta(hours=2))),
        # 1 July in UTC, though 30 June where it was said.
        pond_at=datetime(2023, 6, 30, 23, 30, tzinfo=timezone(timedelta(hours=-2))),
    )

    june = recall(principal=owner, query="camping in June", include=["messages"])
    july = recall(principal=owner, query="camping in July", include=["messages"])

    assert texts(june)[0] == LAKE
    assert texts(july)[0] == POND


def test_the_turn_next_to_a_match_said_in_the_period_ranks_with_it(owner):
    said(owner, "Did you go camping by the lake?", MARCH)
    session, _ = conversation(owner, started_at=JUNE)
    say(owner, session, "Did you go camping by the pond?", occurred_at=JUNE)
    say(owner, session, "Yes, for three nights.", occurred_at=JUNE)

    result = recall(principal=owner, query="Did we go camping in June?", include=["messages"])

    assert texts(result) == [
        "Did you go camping by the pond?",
        "Yes, for three nights.",
        "Did you go camping by the lake?",
    ]
