import uuid

from core.errors import validation_error


def parse_public_id(value: object, field: str) -> uuid.UUID:
    """A public id as a UUID; a malformed one is a validation error naming ``field``."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        raise validation_error(f"{field} must be a UUID.", field=field) from None
