from django.core.exceptions import SuspiciousOperation
from django.utils.cache import add_never_cache_headers

from .principal import principal_context
from .services.access_log import access_failures_settle

# Health checks touch no owner-bearing table and must answer even when the
# database cannot open a transaction.
EXEMPT_PATHS = frozenset({"/healthz", "/readyz"})


class PrincipalContextMiddleware:
    """Run each request inside its user's principal context.

    Must come after AuthenticationMiddleware. Anonymous requests run with no
    principal, so owner-bearing tables read as empty for them.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path in EXEMPT_PATHS:
            return self.get_response(request)
        user = getattr(request, "user", None)
        principal = user if user is not None and user.is_authenticated else None
        try:
            with principal_context(principal):
                return self.get_response(request)
        finally:
            # A failed access record whose write broke the read's transaction is counted
            # now that the transaction is over.
            access_failures_settle()


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

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
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


class NoStoreMiddleware:
    """``Cache-Control: no-store`` (and private) on every response of the API and the sites,
    so that no browser or proxy cache keeps a copy of memory content."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(PRIVATE_PREFIXES):
            add_never_cache_headers(response)
        return response
