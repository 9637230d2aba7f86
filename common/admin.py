"""The operator's admin of the shared layer: flags and kill switches, and background task
health, with no content and no way to run anything.

Apps register their own operator pages beside these (``memory.admin``: the content-free
overview); no model holding memory text is registered on ``/admin/``.
"""

import re
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django_q import models as q_models

from accounts.operators import operator_of
from common.models import Flag
from common.selectors.flags import flag_list
from common.services.flags import flag_set
from core.errors import ReverieError


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    """Every catalogued flag with its effective value and a toggle."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<str:key>/toggle/",
                self.admin_site.admin_view(self.toggle_view),
                name="common_flag_toggle",
            ),
            *super().get_urls(),
        ]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Flags and kill switches",
            "opts": self.model._meta,
            "flags": flag_list(),
            "can_change": self.has_change_permission(request),
        }
        return TemplateResponse(request, "admin/common/flag/change_list.html", context)

    def toggle_view(self, request: HttpRequest, key: str) -> HttpResponse:
        actor = operator_of(request)
        if request.method != "POST" or not self.has_change_permission(request):
            raise PermissionDenied
        try:
            flag = flag_set(key=key, enabled=request.POST.get("enabled") == "on", actor=actor)
        except ReverieError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            state = "on" if flag.enabled else "off"
            self.message_user(request, f"Flag {flag.key} is now {state}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:common_flag_changelist"))


class ReadOnlyListAdmin(admin.ModelAdmin):
    """A list and nothing else: no page per row, no add, change or delete."""

    actions: list[Any] | None = None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        opts = self.model._meta
        return [
            path(
                "",
                self.admin_site.admin_view(self.changelist_view),
                name=f"{opts.app_label}_{opts.model_name}_changelist",
            )
        ]


# django-q2's own admin lets whoever may add a Schedule run any function with
# any arguments in the worker, and shows every task's arguments and result.
# Schedules are declared in code (common.schedules, `manage.py sync_schedules`);
# operators get the read-only, content-free pages below instead. Groups are
# declared in code too (accounts.operators).
for _model in (q_models.Schedule, q_models.Success, q_models.Failure, q_models.OrmQ, Group):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)

_ERROR_CLASS = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


@admin.register(q_models.Task)
class TaskHealthAdmin(ReadOnlyListAdmin):
    """Background tasks: which function ran, when, whether it worked, and the class of its
    error; never their arguments or results, which may name an owner's data."""

    list_display = ("func", "started", "stopped", "success", "attempt_count", "error_class")
    list_display_links = None
    list_filter = ("success", "func")
    ordering = ("-stopped",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[q_models.Task]:
        return (
            super()
            .get_queryset(request)
            .only("id", "func", "started", "stopped", "success", "attempt_count", "result")
        )

    @admin.display(description="error")
    def error_class(self, task: q_models.Task) -> str:
        if task.success:
            return ""
        # A failure's result is its traceback text: show its last line's
        # exception class, never the message.
        last_line = str(task.result or "").strip().splitlines()[-1:] or [""]
        match = _ERROR_CLASS.match(last_line[0])
        return match.group(1) if match else "error"


@admin.register(q_models.Schedule)
class ScheduleListAdmin(ReadOnlyListAdmin):
    """The declared schedules and when each runs next; never their arguments."""

    list_display = ("name", "func", "schedule_type", "minutes", "cron", "repeats", "next_run")
    list_display_links = None
    ordering = ("name",)
