"""Time phrases: what "until the 14th" ends with, and the day something coming is on."""

from datetime import UTC, datetime

import pytest

from formation.temporal import find_dates, find_temporal

# A Wednesday.
NOW = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)


def end_of(year, month, day):
    return datetime(year, month, day, 23, 59, 59, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("until the 14th", end_of(2026, 9, 14)),
        ("until the 19th", end_of(2026, 8, 19)),
        ("until the 31st", end_of(2026, 8, 31)),
        ("until the 5th of September", end_of(2026, 9, 5)),
    ],
)
def test_until_a_day_of_the_month_is_its_next_such_day(text, end):
    (match,) = find_temporal(text, NOW)

    assert (match.hint.valid_until, match.hint.expires_at) == (end, end)


def test_a_day_of_the_month_skips_months_without_it():
    (match,) = find_temporal("until the 31st", datetime(2026, 9, 2, tzinfo=UTC))

    assert match.hint.valid_until == end_of(2026, 10, 31)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("in September", end_of(2026, 9, 30)),
        ("in August", end_of(2026, 8, 31)),
        ("next June", end_of(2027, 6, 30)),
        ("next August", end_of(2027, 8, 31)),
        ("on March 3rd", end_of(2027, 3, 3)),
        ("on the 14th", end_of(2026, 9, 14)),
        ("on the 5th of September", end_of(2026, 9, 5)),
        ("on Friday", end_of(2026, 8, 21)),
        ("next Saturday", end_of(2026, 8, 29)),
        ("next Monday", end_of(2026, 8, 24)),
        ("tomorrow", end_of(2026, 8, 20)),
        ("this weekend", end_of(2026, 8, 23)),
        ("next weekend", end_of(2026, 8, 30)),
        ("next week", end_of(2026, 8, 30)),
        ("next month", end_of(2026, 9, 30)),
        ("later this month", end_of(2026, 8, 31)),
        ("in 2027", end_of(2027, 12, 31)),
        ("in two weeks", end_of(2026, 9, 2)),
    ],
)
def test_a_coming_day_or_period_ends_with_its_last_moment(text, end):
    (match,) = find_dates(text, NOW)

    assert match.hint.phrase == text
    assert match.hint.valid_until == end
    assert match.hint.valid_from is None
    assert match.hint.expires_at is None


@pytest.mark.parametrize("text", ["last June", "yesterday", "in 2025", "on Tuesdays", "soon"])
def test_a_past_recurring_or_vague_time_is_no_coming_date(text):
    assert find_dates(text, NOW) == []
