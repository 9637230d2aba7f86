from django.contrib import admin
from django.urls import include, path

from memory.api.views.health import healthz, readyz
from memory.review.site import review_site

urlpatterns = [
    path("admin/", admin.site.urls),
    path("review/", review_site.urls),
    path("api/v1/", include("memory.api.urls")),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
]

handler404 = "memory.api.errors.not_found_handler"
handler500 = "memory.api.errors.server_error_handler"
