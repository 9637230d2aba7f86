"""What the client raises: one class per code of the service's closed error vocabulary.

Every refusal of the API has the body
``{"error": {"code", "message", "details", "request_id"}}``; the client raises the
``ApiError`` subclass named by ``code``, carrying the message, the details (field names,
limits, the current revision: never memory text) and the request id to quote when
asking the operator what happened.
"""

from typing import Any


class ReverieError(Exception):
    """Anything the client raises."""


class ApiError(ReverieError):
    """The service answered with an error body.

    A code the client does not know yet (the vocabulary is closed, but may grow with
    the service) is raised as ``ApiError`` itself.
    """

    code = ""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status_code: int,
        details: dict[str, Any] | None = None,
        request_id: str = "",
    ):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.status_code = status_code
        self.details = details or {}
        self.request_id = request_id

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" + (
            f" [request_id={self.request_id}]" if self.request_id else ""
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, "
            f"details={self.details!r}, request_id={self.request_id!r})"
        )


class ValidationError(ApiError):
    """400: the request is not valid; ``details`` names the fields (or a ``reason``
    such as ``secret`` or ``injection`` for a refused statement)."""

    code = "validation_error"


class UnauthenticatedError(ApiError):
    """401: no token, or one that is unknown, revoked or of a deactivated principal."""

    code = "unauthenticated"


class ForbiddenError(ApiError):
    """403: the token may not do this (read-only, or narrowed to part of the memories)."""

    code = "forbidden"


class NotFoundError(ApiError):
    """404: no such id for this principal (another owner's id answers the same), or a
    surface that is switched off."""

    code = "not_found"


class MethodNotAllowedError(ApiError):
    """405: the route does not take this HTTP method."""

    code = "method_not_allowed"


class NotAcceptableError(ApiError):
    """406: the service cannot answer in the media type the request accepts."""

    code = "not_acceptable"


class ConflictError(ApiError):
    """409: a stale ``expected_revision`` (``details["current_revision"]`` holds the
    current one), an ``Idempotency-Key`` reused for another request, a closed session,
    a finished run."""

    code = "conflict"


class PayloadTooLargeError(ApiError):
    """413: the body is over the service's limit (``details["limit"]``, in bytes)."""

    code = "payload_too_large"


class UnsupportedMediaTypeError(ApiError):
    """415: the body is not JSON."""

    code = "unsupported_media_type"


class RateLimitedError(ApiError):
    """429: the token's request budget is spent; ``retry_after`` says for how many
    seconds (the client waits and retries by itself when that is short)."""

    code = "rate_limited"

    @property
    def retry_after(self) -> float | None:
        value = self.details.get("retry_after")
        return float(value) if isinstance(value, int | float) else None


class InternalError(ApiError):
    """500: a failure of the service's own, logged there under ``request_id``."""

    code = "internal_error"


class ServiceUnavailableError(ReverieError):
    """The service could not be reached, or answered outside its API (a proxy's 502,
    a page that is not JSON), after the retries the client makes.

    ``status_code`` is ``None`` when no answer came at all.
    """

    def __init__(self, message: str, *, status_code: int | None = None):
        super().__init__(message)
        self.status_code = status_code


ERROR_CLASSES: dict[str, type[ApiError]] = {
    cls.code: cls
    for cls in (
        ValidationError,
        UnauthenticatedError,
        ForbiddenError,
        NotFoundError,
        MethodNotAllowedError,
        NotAcceptableError,
        ConflictError,
        PayloadTooLargeError,
        UnsupportedMediaTypeError,
        RateLimitedError,
        InternalError,
    )
}


def error_from_body(status_code: int, body: Any, request_id: str = "") -> ApiError | None:
    """The exception for an error body, or ``None`` when ``body`` is not one."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), str):
        return None
    code = error["code"]
    details = error.get("details")
    return ERROR_CLASSES.get(code, ApiError)(
        str(error.get("message", "")),
        code=code,
        status_code=status_code,
        details=details if isinstance(details, dict) else {},
        request_id=str(error.get("request_id") or request_id),
    )
