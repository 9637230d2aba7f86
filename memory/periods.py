"""The periods of time a question names: "in June", "in October 2023", "on 13 October, 2023",
"the week before August 3, 2023", "2023-10-13".

Recall ranks first the messages said within them (``memory.selectors.conversation``). The
reading is conservative, since a period read by mistake reorders an answer that had nothing
to do with time: a month's name counts only capitalised, and alone (without a day or a year
beside it) only after a word that introduces a time ("in", "during", "early", ...), so "May
I ask" and "they March on" name nothing; a year alone counts only after such a word too,
so "2023 people" names nothing; a month's abbreviation counts only with a year beside it,
or with a day after such a word or "on" ("Jan" is also a name). Words relative to the
moment of asking ("yesterday", "last week") name nothing on their own: recall does not
know when the asker's "now" is. Next to a named day they reach back from it ("what did
she do the week before August 3")."""

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from common.calendar_words import COUNT_WORDS, MONTH_NAMES, MONTH_NUMBERS, WEEKDAY_NAMES

# A year that any date falls in, leap, for days named without a year.
_ANY_YEAR = 2000
# Only the start of a text is read: a question is short (the API takes 2,000 characters),
# and a text of any length read in full would cost recall time with every month it names.
READ_CHARS = 2000

_MONTH = r"(?P<{0}>" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\b\.?"
_DAY = r"(?P<{0}>\d{{1,2}})(?:st|nd|rd|th)?"
_YEAR = r"(?P<{0}>(?:19|20)\d\d)"
# A number that is part of another (a time, a decimal, a longer number) is no day or year.
_NOT_AFTER = r"(?<![\d:.,/\-])"
_NOT_BEFORE = r"(?![\d:/\-]|[.,]\d)"

# Words after which a month's name alone is read as a time. Months are also given names
# ("April", "May", "June"), so words that as often come before a person ("to", "by",
# "and", "of", "with") are not among them.
_MONTH_CUES = (
    "in|during|since|until|till|through|throughout|before|after|early|mid|late|"
    "last|this|next|from|between"
)
# Words after which a year alone is read as a time.
_YEAR_CUES = f"{_MONTH_CUES}|by|of|to|and|as|summer|winter|spring|autumn|fall|year"


def _cue(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})(?:\s+|-)$", re.IGNORECASE)


_MONTH_CUE = _cue(_MONTH_CUES)
_YEAR_CUE = _cue(_YEAR_CUES)
# Words after which an abbreviated month's name with a day is read as a date ("on Jan 3").
_DAY_CUE = _cue(f"{_MONTH_CUES}|on|by")

_FORMS = [
    # 2023-10-13
    re.compile(rf"{_NOT_AFTER}{_YEAR.format('year')}-(?P<month_n>\d{{1,2}})-(?P<day>\d{{1,2}})\b"),
    # 13/10/2023, 10/13/2023, 13.10.2023
    re.compile(
        rf"{_NOT_AFTER}(?P<first>\d{{1,2}})([/.])(?P<second>\d{{1,2}})\2{_YEAR.format('year')}"
        rf"{_NOT_BEFORE}"
    ),
    # October 13, 2023; Oct 13th 2023; October 13; December 1,2023
    re.compile(
        rf"\b{_MONTH.format('month')}\s+{_DAY.format('day')}"
        rf"(?:(?:\s*,\s*|\s+){_YEAR.format('year')}{_NOT_BEFORE}|{_NOT_BEFORE})",
        re.IGNORECASE,
    ),
    # 13 October 2023; 1 February, 2023; 8th of December; 13 Oct
    re.compile(
        rf"{_NOT_AFTER}\b{_DAY.format('day')}\s+(?:of\s+)?{_MONTH.format('month')}"
        rf"(?:\s*,?\s*{_YEAR.format('year')}{_NOT_BEFORE})?",
        re.IGNORECASE,
    ),
    # October 2023; October, 2023
    re.compile(
        rf"\b{_MONTH.format('month')}\s*,?\s+{_YEAR.format('year')}{_NOT_BEFORE}", re.IGNORECASE
    ),
    # 2023-10
    re.compile(rf"{_NOT_AFTER}\b{_YEAR.format('year')}-(?P<month_n>\d{{2}})\b(?!-)"),
    # June (alone, after a cue)
    re.compile(rf"\b{_MONTH.format('month')}", re.IGNORECASE),
    # 2023 (alone, after a cue)
    re.compile(rf"{_NOT_AFTER}\b{_YEAR.format('year')}\b{_NOT_BEFORE}"),
]

_WEEKDAYS = "|".join(WEEKDAY_NAMES)
# "(two weeks) before", "(the Sunday) before" ending just before a named day.
_BEFORE = re.compile(
    rf"(?:\b(?P<count>\d{{1,2}}|{'|'.join(COUNT_WORDS)})\s+(?P<unit>days?|weeks?)\s+)?"
    r"\b(?P<side>before|after)\s+(?:the\s+|on\s+)?$",
    re.IGNORECASE,
)
# Words that reach back from the day a question names ("last weekend, as said on ...").
_LOOKING_BACK = re.compile(
    rf"\b(?:last\s+(?:week|weekend|night|{_WEEKDAYS})|yesterday|the\s+other\s+day|recently)\b",
    re.IGNORECASE,
)
# How far "before <day>" reaches when the question does not say: a week covers "the
# weekend before", "the Sunday before" and "the week before" alike.
_DEFAULT_REACH = timedelta(days=7)


@dataclass(frozen=True)
class Period:
    """The days from ``first`` to ``last``, both included; with ``any_year``, those days in
    every year (``first`` and ``last`` then fall in a leap year, and ``last`` before
    ``first`` wraps over the new year)."""

    first: date
    last: date
    any_year: bool = False

    def holds(self, day: date) -> bool:
        if not self.any_year:
            return self.first <= day <= self.last
        day = date(_ANY_YEAR, day.month, day.day)
        if self.first <= self.last:
            return self.first <= day <= self.last
        return day >= self.first or day <= self.last


@dataclass(frozen=True)
class _Mention:
    start: int
    end: int
    period: Period
    is_day: bool


def _day(year: int | None, month: int, day: int) -> date | None:
    try:
        return date(_ANY_YEAR if year is None else year, month, day)
    except ValueError:
        return None


def _month(year: int | None, month: int) -> Period:
    days = calendar.monthrange(_ANY_YEAR if year is None else year, month)[1]
    first = date(_ANY_YEAR if year is None else year, month, 1)
    return Period(first, first.replace(day=days), any_year=year is None)


def _one_day(year: int | None, month: int, day: int) -> Period | None:
    found = _day(year, month, day)
    return None if found is None else Period(found, found, any_year=year is None)


def _group(match: re.Match[str], name: str) -> str | None:
    return match.groupdict().get(name)


def _mention(text: str, match: re.Match[str]) -> _Mention | list[_Mention] | None:
    """The period ``match`` names, or None where it is not read as a time."""
    year_text, day_text = _group(match, "year"), _group(match, "day")
    year = int(year_text) if year_text else None
    month_word = _group(match, "month")
    month_number = _group(match, "month_n")
    first, second = _group(match, "first"), _group(match, "second")
    before = text[: match.start()]
    if first is not None and second is not None:
        # Day and month in either order: both readings where both are dates.
        readings = {(int(first), int(second)), (int(second), int(first))}
        days = [_one_day(year, m, d) for d, m in readings]
        found = [_Mention(match.start(), match.end(), period, True) for period in days if period]
        return found or None
    if month_word is not None:
        word = month_word.casefold()
        if not month_word[0].isupper():
            return None
        month = MONTH_NUMBERS[word]
        if (
            day_text is None
            and year is None
            and (word not in MONTH_NAMES or not _MONTH_CUE.search(before))
        ):
            return None
        if (
            day_text is not None
            and year is None
            and word not in MONTH_NAMES
            and not _DAY_CUE.search(before)
        ):
            # "Jan 3" may be a name and a number; "on Jan 3" is a date.
            return None
    elif month_number is not None:
        month = int(month_number)
        if not 1 <= month <= 12:
            return None
    else:
        # A year alone.
        if year is None or not _YEAR_CUE.search(before):
            return None
        return _Mention(
            match.start(), match.end(), Period(date(year, 1, 1), date(year, 12, 31)), False
        )
    if day_text is None:
        return _Mention(match.start(), match.end(), _month(year, month), False)
    period = _one_day(year, month, int(day_text))
    return None if period is None else _Mention(match.start(), match.end(), period, True)


def _mentions(text: str) -> list[_Mention]:
    taken: list[_Mention] = []
    for form in _FORMS:
        for match in form.finditer(text):
            if any(match.start() < other.end and other.start < match.end() for other in taken):
                continue
            found = _mention(text, match)
            if isinstance(found, _Mention):
                taken.append(found)
            elif found:
                taken.extend(found)
    return sorted(taken, key=lambda mention: (mention.start, mention.period.first))


def _reached(text: str, mention: _Mention, looking_back: bool) -> Period:
    """A named day reached back (or on) from by the words around it."""
    period = mention.period
    before = _BEFORE.search(text[: mention.start])
    if before is not None:
        count_text, unit = before.group("count"), before.group("unit")
        reach = _DEFAULT_REACH
        if count_text is not None and unit is not None:
            count = int(count_text) if count_text.isdigit() else COUNT_WORDS[count_text.casefold()]
            reach = timedelta(days=count * (7 if unit.casefold().startswith("week") else 1))
        # The day itself is kept: what was said on it tells of the days before it.
        if before.group("side").casefold() == "before":
            return _shifted(period, first=-reach)
        return _shifted(period, last=reach)
    if looking_back:
        return _shifted(period, first=-_DEFAULT_REACH)
    return period


def _shifted(
    period: Period, *, first: timedelta = timedelta(0), last: timedelta = timedelta(0)
) -> Period:
    start, end = period.first + first, period.last + last
    if period.any_year:
        # Kept within the placeholder year, wrapping over the new year.
        start = start.replace(year=_ANY_YEAR) if start.year != _ANY_YEAR else start
        end = end.replace(year=_ANY_YEAR) if end.year != _ANY_YEAR else end
    return Period(start, end, any_year=period.any_year)


_RANGE_BETWEEN = re.compile(r"^\s*(?:and|to|until|till|-|–)\s*$", re.IGNORECASE)
_RANGE_OPENS = re.compile(r"\b(?:between|from)\s+(?:the\s+)?$", re.IGNORECASE)


def read_periods(text: str) -> tuple[Period, ...]:
    """The periods ``text`` names, each once.

    Bad or odd input reads as naming no period; it never raises. Only the first
    ``READ_CHARS`` characters are read."""
    if not isinstance(text, str) or not text:
        return ()
    text = text[:READ_CHARS]
    mentions = _mentions(text)
    looking_back = bool(_LOOKING_BACK.search(text))
    periods: list[Period] = []
    index = 0
    while index < len(mentions):
        mention = mentions[index]
        following = mentions[index + 1] if index + 1 < len(mentions) else None
        if (
            following is not None
            and _RANGE_OPENS.search(text[: mention.start])
            and _RANGE_BETWEEN.match(text[mention.end : following.start])
        ):
            periods.append(_range(mention.period, following.period))
            index += 2
            continue
        periods.append(_reached(text, mention, looking_back) if mention.is_day else mention.period)
        index += 1
    return tuple(dict.fromkeys(periods))


def _range(start: Period, end: Period) -> Period:
    """From ``start`` to ``end``; a start without a year takes the end's ("between August 11
    and August 15 2023")."""
    if start.any_year and not end.any_year:
        first = _day(end.first.year, start.first.month, start.first.day) or start.first
        return Period(first, end.last) if first <= end.last else end
    if start.any_year == end.any_year:
        return Period(start.first, end.last, any_year=start.any_year)
    return start
