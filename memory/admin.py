"""The operator's admin: flags, kill switches and content-free figures.

No model holding memory text (sessions, events, beliefs...) is registered
here. Operators are principals too; row-level security would show them only
their own rows, but the operator admin does not list those rows at all.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from .errors import ReverieError
from .models import BeliefStatusCount, Flag
from .selectors.flags import flag_list
from .selectors.operations import memory_overview
from .services.flags import flag_set

# The operators' admin is Reverie's, not a generic Django one.
admin.site.site_header = "Reverie operator admin"
admin.site.site_title = "Reverie operator admin"
admin.site.index_title = "Operate Reverie"
admin.site.site_url = None


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    """Every catalogued flag with its effective value and a toggle."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        return [
            path(
                "<str:key>/toggle/",
                self.admin_site.admin_view(self.toggle_view),
                name="memory_flag_toggle",
            ),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Flags and kill switches",
            "opts": self.model._meta,
            "flags": flag_list(),
            "can_change": self.has_change_permission(request),
        }
        return TemplateResponse(request, "admin/memory/flag/change_list.html", context)

    def toggle_view(self, request, key):
        if request.method != "POST" or not self.has_change_permission(request):
            raise PermissionDenied
        try:
            flag = flag_set(
                key=key, enabled=request.POST.get("enabled") == "on", actor=request.user
            )
        except ReverieError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            state = "on" if flag.enabled else "off"
            self.message_user(request, f"Flag {flag.key} is now {state}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:memory_flag_changelist"))


@admin.register(BeliefStatusCount)
class MemoryOverviewAdmin(admin.ModelAdmin):
    """Counts and queue depth across principals, read from content-free tables."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        # Only the overview: no per-row pages.
        return [
            path(
                "",
                self.admin_site.admin_view(self.changelist_view),
                name="memory_beliefstatuscount_changelist",
            )
        ]

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Memory overview",
            "opts": self.model._meta,
            "overview": memory_overview(),
        }
        return TemplateResponse(request, "admin/memory/overview.html", context)
