"""The API's schema and documentation: drf-spectacular extensions (imported when the app is
ready), a hook that leaves out routes whose surface is off, and the two views, which obey
the ``memory_api`` flag like every other route."""

from typing import Any, Protocol

from django.http import HttpRequest, HttpResponseBase
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.views import APIView

from common.api.errors import error_response
from common.selectors.flags import surfaces_enabled


class _RouteView(Protocol):
    """A route's view function, as ``as_view()`` made it from its class."""

    cls: type[APIView]

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase: ...


# What drf-spectacular hands a preprocessing hook for each route: its path, its
# path's pattern, its method and its view.
Endpoint = tuple[str, str, str, _RouteView]


def hide_switched_off_surfaces(endpoints: list[Endpoint], **kwargs: object) -> list[Endpoint]:
    """A preprocessing hook: routes behind a surface flag that is off are not documented,
    as they do not exist for callers either."""
    return [
        endpoint
        for endpoint in endpoints
        if surfaces_enabled(getattr(endpoint[3].cls, "surfaces", ()))
    ]


class _SurfaceGate(APIView):
    """Answers like a missing route, with the error body, while ``memory_api`` is off.

    Checked in ``dispatch``: these views render YAML or HTML, and a refusal
    raised inside DRF would be rendered that way too.
    """

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not surfaces_enabled(("memory_api",)):
            return error_response(request, "not_found", "No such route.")
        return super().dispatch(request, *args, **kwargs)


class SchemaApi(_SurfaceGate, SpectacularAPIView):
    pass


class DocsApi(_SurfaceGate, SpectacularRedocView):
    pass


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "memory.api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token issued to one principal (`manage.py api_tokens create`).",
        }
