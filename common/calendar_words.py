"""English names of months and weekdays, and the words that count them, as people write
them: one table for every reader of dates (formation's time hints, recall's periods),
whatever the locale the process runs in (``calendar.month_name`` follows it)."""

MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Each month's number by its name or its abbreviation ("sept" too), in lower case.
MONTH_NUMBERS = (
    {name: number for number, name in enumerate(MONTH_NAMES, start=1)}
    | {name[:3]: number for number, name in enumerate(MONTH_NAMES, start=1)}
    | {"sept": 9}
)
# How many days, weeks or months a phrase counts, in words ("two weeks before").
COUNT_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
