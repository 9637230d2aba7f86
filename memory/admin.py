"""The operator's admin of memory: its content-free figures (flags, kill switches and task
health are the shared layer's, ``common.admin``).

No model holding memory text (sessions, events, beliefs...) is registered
here. Operators are principals too; row-level security would show them only
their own rows, but the operator admin does not list those rows at all.
"""

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from common.admin import ReadOnlyListAdmin

from .models import BeliefStatusCount
from .selectors.operations import memory_overview


@admin.register(BeliefStatusCount)
class MemoryOverviewAdmin(ReadOnlyListAdmin):
    """Counts and queue depth across principals, read from content-free tables."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Memory overview",
            "opts": self.model._meta,
            "overview": memory_overview(),
        }
        return TemplateResponse(request, "admin/memory/overview.html", context)
