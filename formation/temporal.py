"""Validity and expiry hints: relative time phrases resolved against the message's time.

"until Friday" ends at the end of the next Friday in the message's own time
zone, "for the next two weeks" fourteen days after the message, "since 2019"
starts a validity window, "three years ago" dates when something began. The
phrases are found in a clause and resolved into a ``TemporalHint``; nothing
here guesses a time the text does not state.

``find_dates`` reads another kind of phrase: the day or period something is
coming on ("in September", "next June", "on March 3rd").
"""

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from common.calendar_words import COUNT_WORDS, MONTH_NUMBERS, WEEKDAY_NAMES

from .candidates import TemporalHint

_NUMBER_WORDS = COUNT_WORDS | {
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
    "a couple": 2,
}

_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
_NUM = (
    r"(?:\d{1,3}|a couple of|couple of|a couple|an?|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve)"
)
_UNIT = r"(?:hours?|days?|weeks?|months?|years?)"
_ORD = r"(?:st|nd|rd|th)?"
_DATE = (
    rf"(?:{_MONTH}\.?\s+\d{{1,2}}{_ORD}|\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MONTH}|"
    rf"\d{{4}}-\d{{2}}-\d{{2}})"
)
_POINT = (
    rf"(?:today|tonight|tomorrow|the\s+weekend|(?:next\s+)?{_WEEKDAY}|"
    rf"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:week|month|year)|"
    rf"next\s+(?:week|month|year)|(?:the\s+)?{_DATE}|{_MONTH}|the\s+\d{{1,2}}(?:st|nd|rd|th))"
)

_PATTERNS = (
    ("until", re.compile(rf"\b(?:until|till|til|through|thru)\s+(?P<point>{_POINT})\b", re.I)),
    (
        "for_next",
        re.compile(
            rf"\bfor\s+(?:the\s+)?(?:next|coming|following)\s+(?:(?P<n>{_NUM})\s+)?"
            rf"(?P<unit>{_UNIT})\b",
            re.I,
        ),
    ),
    (
        "for_past",
        re.compile(
            rf"\bfor\s+the\s+(?:past|last)\s+(?:(?P<n>{_NUM})\s+)?(?P<unit>{_UNIT})\b", re.I
        ),
    ),
    ("for", re.compile(rf"\bfor\s+(?P<n>{_NUM})\s+(?P<unit>{_UNIT})\b", re.I)),
    (
        "period_only",
        re.compile(
            r"\b(?:(?:just\s+|only\s+)?for\s+(?P<p1>today|tonight|this\s+week(?:end)?|"
            r"the\s+weekend|this\s+month)|(?P<p2>today|tonight|this\s+week(?:end)?)\s+only)\b",
            re.I,
        ),
    ),
    (
        "from",
        re.compile(
            rf"\b(?:starting|beginning|from|as\s+of)\s+(?:on\s+)?(?P<point>today|tomorrow|"
            rf"(?:next\s+)?{_WEEKDAY}|next\s+(?:week|month|year)|{_DATE})\b",
            re.I,
        ),
    ),
    (
        "since",
        re.compile(
            rf"\bsince\s+(?:(?P<month>{_MONTH})\s+)?(?P<year>(?:19|20)\d\d)\b"
            rf"|\bsince\s+last\s+(?P<last>week|month|year|{_WEEKDAY})\b",
            re.I,
        ),
    ),
    ("ago", re.compile(rf"\b(?P<n>{_NUM})\s+(?P<unit>{_UNIT})\s+ago\b", re.I)),
    (
        "past_point",
        re.compile(
            rf"\b(?:(?P<yesterday>yesterday)|last\s+night|last\s+(?P<last>week|month|year|"
            rf"{_WEEKDAY}))\b",
            re.I,
        ),
    ),
)
# A duration "for two weeks" looks back when the clause speaks of the past.
_PERFECT_RE = re.compile(r"\b(?:have|has|had)\s+been\b|\b(?:have|has)\s+\w+ed\b|\bwas\b", re.I)


@dataclass(frozen=True)
class TemporalMatch:
    """A resolved phrase and where it sits in the searched text."""

    start: int
    end: int
    hint: TemporalHint


def _number(text: str) -> int | None:
    text = " ".join(text.lower().split())
    if text.isdigit():
        return int(text)
    return _NUMBER_WORDS.get(text)


def _end_of(day: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(day, time(23, 59, 59), tzinfo=tz)


def _start_of(day: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(day, time(0, 0), tzinfo=tz)


def _add_months(moment: datetime, months: int) -> datetime:
    month_index = moment.month - 1 + months
    year, month = moment.year + month_index // 12, month_index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def _shift(moment: datetime, n: int, unit: str, sign: int = 1) -> datetime:
    unit = unit.lower().rstrip("s")
    if unit == "hour":
        return moment + sign * timedelta(hours=n)
    if unit == "day":
        return moment + sign * timedelta(days=n)
    if unit == "week":
        return moment + sign * timedelta(weeks=n)
    if unit == "month":
        return _add_months(moment, sign * n)
    return _add_months(moment, sign * 12 * n)


def _next_weekday(today: date, name: str, *, next_week: bool = False) -> date:
    target = WEEKDAY_NAMES.index(name.lower())
    ahead = (target - today.weekday()) % 7 or 7
    day = today + timedelta(days=ahead)
    if next_week and day.isocalendar()[1] == today.isocalendar()[1]:
        day += timedelta(days=7)
    return day


def _end_of_period(today: date, period: str) -> date:
    if period == "week":
        return today + timedelta(days=6 - today.weekday())
    if period == "month":
        return today.replace(day=calendar.monthrange(today.year, today.month)[1])
    return today.replace(month=12, day=31)


def _calendar_date(text: str, today: date) -> date | None:
    """The next date on or after ``today`` named like "June 5", "5th of June", "2026-06-05" or
    "the 14th" (of this month, else of the next month that has one)."""
    text = re.sub(r"^the\s+", "", text.lower().replace(".", " ").strip())
    iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if iso:
        return date(int(iso[1]), int(iso[2]), int(iso[3]))
    day_match = re.search(r"\d{1,2}", text)
    month_match = re.search(r"[a-z]{3,}", text.replace("of", " "))
    if not day_match:
        return None
    if not month_match:
        return _day_of_month(int(day_match.group(0)), today)
    month = MONTH_NUMBERS.get(month_match.group(0))
    if month is None:
        return None
    candidate = date(today.year, month, int(day_match.group(0)))
    return candidate if candidate >= today else candidate.replace(year=today.year + 1)


def _day_of_month(day: int, today: date) -> date | None:
    year, month = today.year, today.month
    for _ in range(13):
        if 1 <= day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _point_day(point: str, today: date) -> date | None:
    """The last day a "until <point>" phrase still covers."""
    point = " ".join(point.lower().split())
    if point in {"today", "tonight"}:
        return today
    if point == "tomorrow":
        return today + timedelta(days=1)
    if point == "the weekend":
        return _next_weekday(today, "sunday") if today.weekday() != 6 else today
    if point.startswith("next ") and point[5:] in WEEKDAY_NAMES:
        return _next_weekday(today, point[5:], next_week=True)
    if point in WEEKDAY_NAMES:
        return _next_weekday(today, point)
    period = re.search(r"(week|month|year)$", point)
    if period and ("end" in point or point.startswith("next")):
        return _end_of_period(today, period.group(1))
    if point in MONTH_NUMBERS:
        month = MONTH_NUMBERS[point]
        year = today.year if month >= today.month else today.year + 1
        return date(year, month, calendar.monthrange(year, month)[1])
    return _calendar_date(point, today)


def _start_day(point: str, today: date) -> date | None:
    """The first day a "starting <point>" phrase covers."""
    point = " ".join(point.lower().split())
    if point == "today":
        return today
    if point == "tomorrow":
        return today + timedelta(days=1)
    if point.startswith("next ") and point[5:] in WEEKDAY_NAMES:
        return _next_weekday(today, point[5:], next_week=True)
    if point in WEEKDAY_NAMES:
        return _next_weekday(today, point)
    if point == "next week":
        return today + timedelta(days=7 - today.weekday())
    if point == "next month":
        return (_end_of_period(today, "month") + timedelta(days=1)).replace(day=1)
    if point == "next year":
        return date(today.year + 1, 1, 1)
    return _calendar_date(point, today)


def _last_weekday(today: date, name: str) -> date:
    target = WEEKDAY_NAMES.index(name.lower())
    return today - timedelta(days=(today.weekday() - target) % 7 or 7)


def _previous_period_start(today: date, period: str) -> date:
    if period in WEEKDAY_NAMES:
        return _last_weekday(today, period)
    if period == "week":
        return today - timedelta(days=today.weekday() + 7)
    if period == "month":
        return (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    return date(today.year - 1, 1, 1)


def _resolve(kind: str, match: re.Match[str], now: datetime, clause: str) -> TemporalHint | None:
    tz = now.tzinfo
    today = now.date()
    groups = match.groupdict()
    phrase = match.group(0)
    if kind == "until":
        day = _point_day(groups["point"], today)
        if day is None:
            return None
        end = _end_of(day, tz)
        return TemporalHint(phrase=phrase, valid_until=end, expires_at=end)
    if kind in {"for_next", "for", "for_past"}:
        n = _number(groups["n"]) if groups.get("n") else 1
        if n is None:
            return None
        looks_back = kind == "for_past" or (kind == "for" and _PERFECT_RE.search(clause))
        if looks_back:
            return TemporalHint(phrase=phrase, valid_from=_shift(now, n, groups["unit"], -1))
        end = _shift(now, n, groups["unit"])
        return TemporalHint(phrase=phrase, valid_until=end, expires_at=end)
    if kind == "period_only":
        period = " ".join((groups["p1"] or groups["p2"]).lower().split())
        if period in {"today", "tonight"}:
            day = today
        elif period in {"this weekend", "the weekend", "this week"}:
            day = _end_of_period(today, "week")
        else:
            day = _end_of_period(today, "month")
        end = _end_of(day, tz)
        return TemporalHint(phrase=phrase, valid_until=end, expires_at=end)
    if kind == "from":
        day = _start_day(groups["point"], today)
        return TemporalHint(phrase=phrase, valid_from=_start_of(day, tz)) if day else None
    if kind == "since":
        if groups["year"]:
            month = MONTH_NUMBERS.get((groups["month"] or "").lower(), 1)
            start = date(int(groups["year"]), month, 1)
        else:
            start = _previous_period_start(today, groups["last"].lower())
        return TemporalHint(phrase=phrase, valid_from=_start_of(start, tz))
    if kind == "ago":
        n = _number(groups["n"])
        if n is None:
            return None
        return TemporalHint(phrase=phrase, valid_from=_shift(now, n, groups["unit"], -1))
    if groups.get("yesterday") or phrase.lower().startswith("last night"):
        start = today - timedelta(days=1 if groups.get("yesterday") else 0)
        if not groups.get("yesterday") and now.hour >= 12:
            start = today
        return TemporalHint(phrase=phrase, valid_from=_start_of(start, tz))
    return TemporalHint(
        phrase=phrase,
        valid_from=_start_of(_previous_period_start(today, groups["last"].lower()), tz),
    )


def find_temporal(text: str, occurred_at: datetime) -> list[TemporalMatch]:
    """Every time phrase of ``text`` resolved against ``occurred_at``, in text order.

    A naive ``occurred_at`` is read as UTC. Overlapping phrases keep the first
    pattern that claimed the span ("for the next two weeks" is not also "for two
    weeks"). Impossible dates ("February 30") are skipped.
    """
    if occurred_at.tzinfo is None:
        occurred_at = occurred_at.replace(tzinfo=UTC)
    found: list[TemporalMatch] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            try:
                hint = _resolve(kind, match, occurred_at, text)
            except (ValueError, OverflowError):
                hint = None
            if hint is not None:
                taken.append((start, end))
                found.append(TemporalMatch(start, end, hint))
    found.sort(key=lambda m: m.start)
    return found


_MONTH_NAME = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)"
)
# The day or period something is coming on. Only what lies ahead: a past day
# ("last June", "yesterday") is no date of something coming.
_COMING_RE = re.compile(
    rf"\b(?:(?:on\s+)?(?:the\s+)?(?P<date>{_DATE})"
    rf"|on\s+the\s+(?P<day_of_month>\d{{1,2}}(?:st|nd|rd|th))"
    rf"|(?:(?P<which_weekday>on|this|next|this\s+coming)\s+)?(?P<weekday>{_WEEKDAY})(?!s)"
    rf"|(?P<day>today|tonight|tomorrow)"
    rf"|(?P<which_period>this|next)\s+(?P<period>week(?:end)?|month|year)"
    rf"|(?:later\s+this|(?:at\s+)?the\s+end\s+of\s+(?:the|this))\s+(?P<rest_of>week|month|year)"
    rf"|(?P<which_month>in|this|next)\s+(?P<month>{_MONTH_NAME})(?:\s+(?P<month_year>(?:19|20)\d\d))?"
    rf"|in\s+(?P<year>(?:19|20)\d\d)"
    rf"|in\s+(?P<n>{_NUM})\s+(?P<unit>days?|weeks?|months?|years?))\b",
    re.I,
)


def _coming_day(groups: dict[str, Any], now: datetime) -> date | None:
    """The last day of the day or period a ``_COMING_RE`` match names, or None."""
    today = now.date()
    if groups["date"]:
        return _calendar_date(groups["date"], today)
    if groups["day_of_month"]:
        return _calendar_date(groups["day_of_month"], today)
    if groups["weekday"]:
        which = " ".join((groups["which_weekday"] or "").lower().split())
        return _next_weekday(today, groups["weekday"], next_week=which == "next")
    if groups["day"]:
        return today + timedelta(days=1) if groups["day"].lower() == "tomorrow" else today
    if groups["period"]:
        period = groups["period"].lower()
        end = _end_of_period(today, "week" if period == "weekend" else period)
        if groups["which_period"].lower() == "next":
            end = _end_of_period(end + timedelta(days=1), "week" if period == "weekend" else period)
        return end
    if groups["rest_of"]:
        return _end_of_period(today, groups["rest_of"].lower())
    if groups["month"]:
        month = MONTH_NUMBERS[groups["month"].lower()]
        if groups["month_year"]:
            year = int(groups["month_year"])
        elif groups["which_month"].lower() == "next":
            # "next June" is the next June that is not this month.
            year = today.year if month > today.month else today.year + 1
        else:
            year = today.year if month >= today.month else today.year + 1
        return date(year, month, calendar.monthrange(year, month)[1])
    if groups["year"]:
        return date(int(groups["year"]), 12, 31)
    n = _number(groups["n"])
    return _shift(now, n, groups["unit"]).date() if n is not None else None


def find_dates(text: str, occurred_at: datetime) -> list[TemporalMatch]:
    """The phrases of ``text`` that name a day or period to come, in text order.

    Each hint ends (``valid_until``) with the last moment of the day or period
    named, in ``occurred_at``'s time zone: what is said of something coming
    holds until it has happened. Nothing expires with it, and a day already past
    is skipped. A naive ``occurred_at`` is read as UTC.
    """
    if occurred_at.tzinfo is None:
        occurred_at = occurred_at.replace(tzinfo=UTC)
    found: list[TemporalMatch] = []
    for match in _COMING_RE.finditer(text):
        try:
            day = _coming_day(match.groupdict(), occurred_at)
        except (ValueError, OverflowError):
            day = None
        if day is None or day < occurred_at.date():
            continue
        end = _end_of(day, occurred_at.tzinfo)
        hint = TemporalHint(phrase=match.group(0), valid_until=end)
        found.append(TemporalMatch(match.start(), match.end(), hint))
    return found
