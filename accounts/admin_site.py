from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from core.admin_lookups import DeclaredLookupsSite

from .forms import OperatorAuthenticationForm
from .operators import is_operator, operator_of
from .services import admin_lookup_refusal_record
from .site_login import SiteLoginMixin


class OperatorAdminSite(SiteLoginMixin, DeclaredLookupsSite, admin.AdminSite):
    """``/admin/``: Reverie's operators, and nobody else (a superuser included).

    Every list here, django-q2's included, filters only by the filters it
    declares (``core.admin_lookups``); a refused lookup goes to the operator trail.
    """

    site_header = "Reverie operator admin"
    site_title = "Reverie operator admin"
    index_title = "Operate Reverie"
    site_url = None
    login_form = OperatorAuthenticationForm

    def has_permission(self, request: HttpRequest) -> bool:
        return is_operator(request.user)

    def lookups_refused(
        self, request: HttpRequest, *, model_admin: "admin.ModelAdmin[Any]", lookups: list[str]
    ) -> None:
        admin_lookup_refusal_record(
            actor=operator_of(request), model_label=model_admin.opts.label_lower, lookups=lookups
        )
