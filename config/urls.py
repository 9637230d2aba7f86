from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from common.api.health import healthz, readyz
from common.favicon import favicon
from memory.review.site import review_site

urlpatterns = [
    # The owners' site is the front door; operators know their way to /admin/.
    path("", RedirectView.as_view(pattern_name="review:index", permanent=False)),
    path("admin/", admin.site.urls),
    path("review/", review_site.urls),
    # Before memory's routes, whose last pattern answers every other /api/ path with 404.
    path("api/v1/", include("reconsolidation.api.urls")),
    path("api/v1/", include("formation.api.urls")),
    path("api/v1/", include("memory.api.urls")),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("favicon.ico", favicon, name="favicon"),
]

handler400 = "common.api.errors.bad_request_handler"
handler404 = "common.api.errors.not_found_handler"
handler500 = "common.api.errors.server_error_handler"
