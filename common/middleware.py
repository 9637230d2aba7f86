"""Request rules every page and route of the service follows, whatever app answers it."""

from collections.abc import Callable

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.http import http_date

FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class NulByteInRequest(SuspiciousOperation):
    """A query or form value holding a NUL byte, which no text column can store."""


class RejectNulBytesMiddleware:
    """Refuse a NUL byte anywhere in the query string or a submitted form with a 400.

    PostgreSQL text cannot hold NUL, so a value carrying one would otherwise
    fail deep in a query (a review-site filter, say) as a server error. The
    exception goes to the 400 handler, which answers in the closed vocabulary
    under /api/. JSON bodies are left to the API's serializers, which refuse
    NUL in text fields themselves.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forms = [request.GET]
        # Not the API's: it takes JSON only, and a form read here would reach
        # its views as data instead of being refused as a media type.
        form_body = request.content_type in FORM_CONTENT_TYPES
        if form_body and not request.path.startswith("/api/"):
            forms.append(request.POST)
        for form in forms:
            for key, values in form.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    raise NulByteInRequest("A request value holds a NUL byte.")
        return self.get_response(request)


# Every response of these carries, or may carry, memory content.
PRIVATE_PREFIXES = ("/api/", "/review/", "/admin/")
# ``add_never_cache_headers``'s directives, in its order.
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"


class NoStoreMiddleware:
    """``Cache-Control: no-store`` (and private) on every response of the API and the sites,
    so that no browser or proxy cache keeps a copy of memory content."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(PRIVATE_PREFIXES):
            return response
        if "Cache-Control" in response or "Expires" in response:
            # Django merges its directives into what a view set.
            add_never_cache_headers(response)
        else:
            # What Django writes on a response without either header, written at once: every
            # API answer takes this path, and parsing headers it does not have cost it more.
            response.headers["Expires"] = http_date()
            response.headers["Cache-Control"] = NEVER_CACHE
        return response


# Everything a page uses comes from this server: pages name no other host, and this
# makes a browser refuse one that slipped in (a third-party template's fonts or logo).
# Inline scripts and styles stay allowed: the admin's and ReDoc's pages use them.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class SameOriginContentMiddleware:
    """A ``Content-Security-Policy`` on every page that keeps its loads on this server."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response
