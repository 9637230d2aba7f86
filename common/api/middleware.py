import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .errors import error_response

_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class RequestIdMiddleware:
    """Give every request an id: the caller's ``X-Request-ID`` if sane, else a new one.

    Error bodies and the log carry it, and the response echoes it back.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        request_id = incoming if _REQUEST_ID_RE.match(incoming) else uuid.uuid4().hex
        # An attribute of this project's requests, which the stubs' HttpRequest lacks.
        request.request_id = request_id  # type: ignore[attr-defined]
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response


class ApiBodyLimitMiddleware:
    """Refuse an oversized API body before anything reads it (413 payload_too_large)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            limit = settings.REVERIE_LIMITS["api_body_max_bytes"]
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return error_response(
                    request,
                    "payload_too_large",
                    f"The request body is {length} bytes; the limit is {limit}.",
                    {"limit": limit},
                )
        return self.get_response(request)
