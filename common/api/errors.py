"""Every failure of /api/ as one body with a code from the closed vocabulary.

``{"error": {"code", "message", "details", "request_id"}}``; see
``core.errors.HTTP_STATUS_BY_CODE`` for the codes.
"""

import logging
from typing import Any, TypedDict

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response

from core.errors import HTTP_STATUS_BY_CODE, ReverieError

logger = logging.getLogger("memory.api")

_DRF_CODES = (
    (exceptions.ParseError, "validation_error"),
    (exceptions.ValidationError, "validation_error"),
    (exceptions.NotAuthenticated, "unauthenticated"),
    (exceptions.AuthenticationFailed, "unauthenticated"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "rate_limited"),
)


class ErrorDetail(TypedDict):
    code: str
    message: str
    details: dict[str, Any]
    request_id: str


class ErrorBody(TypedDict):
    error: ErrorDetail


def error_body(
    request: HttpRequest, code: str, message: str, details: dict[str, Any] | None = None
) -> ErrorBody:
    return {
        "error": {
            "code": code,
            "message": message,
            "details": details or {},
            "request_id": getattr(request, "request_id", ""),
        }
    }


def error_response(
    request: HttpRequest, code: str, message: str, details: dict[str, Any] | None = None
) -> JsonResponse:
    """A plain Django response with the error body, for code outside DRF views."""
    return JsonResponse(
        error_body(request, code, message, details), status=HTTP_STATUS_BY_CODE[code]
    )


def _retry_after(exc: exceptions.Throttled) -> float | None:
    """Seconds until the throttle lets the client in again, when it knows."""
    # DRF sets ``wait`` in Throttled's __init__; the stubs leave the attribute out.
    wait: float | None = exc.wait  # type: ignore[attr-defined]
    return wait


def _drf_error(exc: Exception) -> tuple[str, str, dict[str, Any]] | None:
    code = next((code for cls, code in _DRF_CODES if isinstance(exc, cls)), None)
    if code is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        return code, "The request is not valid.", {"fields": exc.detail}
    if isinstance(exc, exceptions.ParseError):
        return code, "The request body is not valid JSON.", {}
    if isinstance(exc, exceptions.Throttled):
        return code, "Too many requests; retry later.", {"retry_after": _retry_after(exc)}
    assert isinstance(exc, exceptions.APIException)  # every class in _DRF_CODES is one
    return code, str(exc.detail), {}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's exception handler: map every exception to the error body."""
    request = context["request"]
    headers: dict[str, str] = {}
    details: dict[str, Any]
    if isinstance(exc, ReverieError):
        code, message, details = exc.code, exc.message, exc.details
    elif isinstance(exc, Http404):
        code, message, details = "not_found", "Not found.", {}
    elif isinstance(exc, DjangoPermissionDenied):
        code, message, details = "forbidden", "You may not do this.", {}
    elif isinstance(exc, SuspiciousOperation):
        # Too many query parameters, say: the request, not the service, is at fault.
        code, message, details = "validation_error", MALFORMED, {"reason": type(exc).__name__}
    elif (mapped := _drf_error(exc)) is not None:
        code, message, details = mapped
        wait = _retry_after(exc) if isinstance(exc, exceptions.Throttled) else None
        if wait is not None:
            headers["Retry-After"] = str(max(1, int(wait + 0.999)))
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            headers["WWW-Authenticate"] = 'Bearer realm="api"'
    else:
        logger.error(
            "unhandled error in %s %s [request_id=%s]",
            request.method,
            request.path,
            getattr(request, "request_id", ""),
            exc_info=exc,
        )
        code, message, details = "internal_error", "Something went wrong on our side.", {}
    return Response(
        error_body(request, code, message, details),
        status=HTTP_STATUS_BY_CODE[code],
        headers=headers,
    )


MALFORMED = "The request is malformed."


def bad_request_handler(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 handler (a bad Host header, say): the error body under /api/."""
    if request.path.startswith("/api/"):
        return error_response(
            request, "validation_error", MALFORMED, {"reason": type(exception).__name__}
        )
    return defaults.bad_request(request, exception)


def not_found_handler(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 404 handler: the error body under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return error_response(request, "not_found", "No such route.")
    return defaults.page_not_found(request, exception)


def server_error_handler(request: HttpRequest) -> HttpResponse:
    """Django's 500 handler: the error body under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return error_response(request, "internal_error", "Something went wrong on our side.")
    return defaults.server_error(request)
