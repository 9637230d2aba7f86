from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from common.principal import principal_context

from .services.access_log import access_failures_settle

# Health checks touch no owner-bearing table and must answer even when the
# database cannot open a transaction.
EXEMPT_PATHS = frozenset({"/healthz", "/readyz"})


class PrincipalContextMiddleware:
    """Run each request inside its user's principal context.

    Must come after AuthenticationMiddleware. Anonymous requests run with no
    principal, so owner-bearing tables read as empty for them.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
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
