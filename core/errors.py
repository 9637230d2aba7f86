"""The one error class services raise, with codes from a closed vocabulary."""

from typing import Any

HTTP_STATUS_BY_CODE = {
    "validation_error": 400,
    "unauthenticated": 401,
    "forbidden": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_acceptable": 406,
    "conflict": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "internal_error": 500,
}


class ReverieError(Exception):
    """A refusal a caller can act on.

    ``code`` is one of ``HTTP_STATUS_BY_CODE``; ``details`` is a JSON-safe dict
    (field names, limits, current revision) and never holds memory text.
    """

    def __init__(self, code: str, message: str, **details: Any) -> None:
        if code not in HTTP_STATUS_BY_CODE:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"ReverieError({self.code!r}, {self.message!r}, {self.details!r})"


def validation_error(message: str, **details: Any) -> ReverieError:
    return ReverieError("validation_error", message, **details)


def not_found(kind: str) -> ReverieError:
    # The same answer whether the row is missing or belongs to someone else.
    return ReverieError("not_found", f"No such {kind}.")


def conflict(message: str, **details: Any) -> ReverieError:
    return ReverieError("conflict", message, **details)
