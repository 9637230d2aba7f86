from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView

from common.api.errors import not_found_handler
from common.api.health import healthz, readyz
from common.favicon import favicon
from memory.review.site import review_site

urlpatterns = [
    # The owners' site is the front door; operators know their way to /admin/.
    path("", RedirectView.as_view(pattern_name="review:index", permanent=False)),
    path("admin/", admin.site.urls),
    path("review/", review_site.urls),
    # Memory's first: recall, the route of every assistant turn, is its first pattern.
    path("api/v1/", include("memory.api.urls")),
    path("api/v1/", include("reconsolidation.api.urls")),
    path("api/v1/", include("formation.api.urls")),
    # After every API route: anything else under the API is a missing route, answered
    # with the error body even when DEBUG would render Django's HTML page.
    re_path(r"^api/v1/", csrf_exempt(not_found_handler)),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("favicon.ico", favicon, name="favicon"),
]

handler400 = "common.api.errors.bad_request_handler"
handler404 = "common.api.errors.not_found_handler"
handler500 = "common.api.errors.server_error_handler"
