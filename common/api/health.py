from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from common.selectors.health import readiness


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up. Unauthenticated and content-free."""
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """The database answers, migrations are applied and a worker beat recently."""
    checks = readiness()
    ready = all(checks.values())
    return JsonResponse(
        {"status": "ready" if ready else "not_ready", "checks": checks},
        status=200 if ready else 503,
    )
