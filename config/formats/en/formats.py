# One date format on every page (the review site, the operator admin, lists and
# detail pages alike), instead of the locale's "Dec. 1, 2026, 12:46 p.m.".
DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
