from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    # DRF loads this class while its views module is being imported.
    from rest_framework.views import APIView


class PrincipalRateThrottle(SimpleRateThrottle):
    """A request budget per API token (per principal for browser sessions)."""

    scope = "principal"

    def get_rate(self) -> str | None:
        # Read at request time rather than import time, so that a changed
        # setting takes effect without a restart of the class.
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return None if rate is None else str(rate)

    def get_cache_key(self, request: Request, view: "APIView") -> str:
        token = getattr(request, "auth", None)
        if token is not None and hasattr(token, "pk"):
            ident = f"token:{token.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        else:
            ident = f"anon:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
