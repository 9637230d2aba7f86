"""Reading the periods of time a question names."""

from datetime import date

import pytest

from memory.periods import Period, read_periods


def periods(text):
    return [
        (period.first.isoformat(), period.last.isoformat(), period.any_year)
        for period in read_periods(text)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A day, in the ways it is written.
        ("What did she show on October 13, 2023?", ("2023-10-13", "2023-10-13")),
        ("What did she find on 1 February, 2023?", ("2023-02-01", "2023-02-01")),
        ("Which book did he finish on 8th December, 2023?", ("2023-12-08", "2023-12-08")),
        ("Where was the picture taken on December 1,2023?", ("2023-12-01", "2023-12-01")),
        ("What happened on the 13th of October 2023?", ("2023-10-13", "2023-10-13")),
        ("What did we agree on Oct 13th 2023?", ("2023-10-13", "2023-10-13")),
        ("What did we agree on 13 Oct. 2023?", ("2023-10-13", "2023-10-13")),
        ("What was said on 2023-10-13?", ("2023-10-13", "2023-10-13")),
        ("What was said on 31/10/2023?", ("2023-10-31", "2023-10-31")),
        ("What was said on 10/31/2023?", ("2023-10-31", "2023-10-31")),
        ("What was said on 29 February 2024?", ("2024-02-29", "2024-02-29")),
        # A month, with its year or without.
        ("What setback did she face in October 2023?", ("2023-10-01", "2023-10-31")),
        ("What happened in October, 2023?", ("2023-10-01", "2023-10-31")),
        ("What did we plan for Sept 2023?", ("2023-09-01", "2023-09-30")),
        ("What was decided in 2023-02?", ("2023-02-01", "2023-02-28")),
        ("Was the first half of September 2022 good?", ("2022-09-01", "2022-09-30")),
        # A year.
        ("How often did she go to the beach in 2023?", ("2023-01-01", "2023-12-31")),
        ("Which state did she visit in summer 2021?", ("2021-01-01", "2021-12-31")),
        ("What charity did he run during 2024?", ("2024-01-01", "2024-12-31")),
        # Reaching back from a named day.
        ("What did she do last weekend before April 10, 2023?", ("2023-04-03", "2023-04-10")),
        ("What did he do the week before August 3, 2023?", ("2023-07-27", "2023-08-03")),
        ("Which puppy did she get two weeks before August 11, 2023?", ("2023-07-28", "2023-08-11")),
        ("What was shown the Sunday before October 25, 2022?", ("2022-10-18", "2022-10-25")),
        ("What was ready 3 days before 2023-10-13?", ("2023-10-10", "2023-10-13")),
        ("What did she finish last Friday, on 23 January, 2022?", ("2022-01-16", "2022-01-23")),
        ("What happened in the week after 1 March 2023?", ("2023-03-01", "2023-03-08")),
        # From one day to another.
        ("Where was he between August 11 and August 15 2023?", ("2023-08-11", "2023-08-15")),
        ("Where was he from 1 May 2023 to 3 May 2023?", ("2023-05-01", "2023-05-03")),
    ],
)
def test_it_reads_a_period_with_its_year(text, expected):
    assert periods(text) == [(*expected, False)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("When did she go camping in June?", ("2000-06-01", "2000-06-30")),
        ("What did you plan for mid-June?", ("2000-06-01", "2000-06-30")),
        ("What happened in early March?", ("2000-03-01", "2000-03-31")),
        ("In May, what did we buy?", ("2000-05-01", "2000-05-31")),
        ("What happened at 10:30 on May 5?", ("2000-05-05", "2000-05-05")),
        ("What was agreed on Jan 3?", ("2000-01-03", "2000-01-03")),
        ("What did you do on the 4th of July?", ("2000-07-04", "2000-07-04")),
        ("Did we talk about it since February?", ("2000-02-01", "2000-02-29")),
        # Wrapping over the new year.
        ("What happened the week before 3 January?", ("2000-12-27", "2000-01-03")),
    ],
)
def test_a_period_named_without_a_year_is_read_in_every_year(text, expected):
    assert periods(text) == [(*expected, True)]


def test_a_day_named_without_a_year_holds_in_any_year_and_wraps_over_the_new_year():
    (june,) = read_periods("camping in June")
    (new_year,) = read_periods("the week before 3 January")

    assert june.holds(date(2023, 6, 30)) and june.holds(date(1999, 6, 1))
    assert not june.holds(date(2023, 7, 1))
    assert new_year.holds(date(2022, 12, 28)) and new_year.holds(date(2023, 1, 3))
    assert not new_year.holds(date(2023, 1, 4)) and not new_year.holds(date(2022, 12, 26))
    assert Period(date(2000, 2, 29), date(2000, 2, 29), any_year=True).holds(date(2024, 2, 29))


def test_several_periods_are_each_read_once():
    assert periods("What changed between June 2023 and 2023-06, and in October 2023?") == [
        ("2023-06-01", "2023-06-30", False),
        ("2023-10-01", "2023-10-31", False),
    ]


def test_an_ambiguous_numeric_day_is_read_both_ways():
    assert periods("What happened on 3/4/2023?") == [
        ("2023-03-04", "2023-03-04", False),
        ("2023-04-03", "2023-04-03", False),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "May I ask what you did?",
        "You may go camping",
        "They march in step.",
        "Will they March on the capital?",
        "Did Tom and May go to the beach?",
        "What did you say to June?",
        "I gave a painting by April to a friend of August.",
        "We counted 2023 people.",
        "Room 2023 was booked.",
        "Jan 3 people came",
        "What did Jan say?",
        "Mar the table and Dec the halls",
        "What happened on February 30, 2023?",
        "What happened on 31/02/2023?",
        "It cost 3.5 2023 dollars",
        "What happened at 10:30?",
        "What happened last week?",
        "What did we do yesterday?",
        "Which month was he in Italy?",
        "What year did he start surfing?",
        "Which version, 1.2023 or 2023.1?",
        "",
        "   ",
        "2023-13-45 and 2023-00",
        "in Junee",
        "\x00\ufffd June\u200b 2023?",
    ],
)
def test_it_reads_no_period_where_none_is_named(text):
    assert periods(text) == []


@pytest.mark.parametrize("value", [None, 2023, b"June 2023", ["June 2023"]])
def test_input_that_is_not_text_names_no_period(value):
    assert read_periods(value) == ()


def test_only_the_start_of_a_long_text_is_read():
    text = "What happened in June 2023?" + " and then" * 300 + " in March 2023?"

    assert periods(text) == [("2023-06-01", "2023-06-30", False)]
    assert periods("in May 2023 " * 10_000)[:1] == [("2023-05-01", "2023-05-31", False)]
