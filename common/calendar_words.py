"""English names of months and weekdays as people write them: one table for every reader of
dates (formation's time hints, recall's periods), whatever the locale the process runs in
(``calendar.month_name`` follows it)."""

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
