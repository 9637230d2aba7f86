"""The opaque ``changed_since`` cursor of the memory list."""

import base64
import binascii
from datetime import datetime

from django.utils.dateparse import parse_datetime

from core.errors import validation_error


def cursor_encode(position: tuple[datetime, int] | None) -> str | None:
    if position is None:
        return None
    changed_at, row_id = position
    raw = f"{changed_at.isoformat()}|{row_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cursor_decode(value: str) -> tuple[datetime, int]:
    """A position from a cursor this API returned, or from an ISO-8601 time."""
    moment = parse_datetime(value) if value else None
    if moment is not None:
        if moment.tzinfo is None:
            raise validation_error("changed_since needs a timezone.", field="changed_since")
        return moment, 0
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
        changed_at, row_id = raw.split("|")
        moment = parse_datetime(changed_at)
        if moment is None or moment.tzinfo is None:
            raise ValueError
        return moment, int(row_id)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise validation_error(
            "changed_since must be a cursor from an earlier response or an ISO-8601 time.",
            field="changed_since",
        ) from None
