from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class PrincipalRateThrottle(SimpleRateThrottle):
    """A request budget per API token (per principal for browser sessions)."""

    scope = "principal"

    def get_rate(self):
        # Read at request time rather than import time, so that a changed
        # setting takes effect without a restart of the class.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        token = getattr(request, "auth", None)
        if token is not None and hasattr(token, "pk"):
            ident = f"token:{token.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        else:
            ident = f"anon:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
