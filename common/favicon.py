"""The site's icon, served at the address browsers ask for on every page.

Without it each page view logged a "Not Found: /favicon.ico" warning, noise in the
operator's log that hid the warnings that matter.
"""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="6" fill="#264b5d"/>'
    '<text x="16" y="23" font-family="sans-serif" font-size="20" font-weight="700" '
    'text-anchor="middle" fill="#fff">R</text></svg>'
)


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON, content_type="image/svg+xml")
