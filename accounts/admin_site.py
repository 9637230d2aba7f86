from django.contrib import admin

from .forms import OperatorAuthenticationForm
from .operators import is_operator
from .site_login import SiteLoginMixin


class OperatorAdminSite(SiteLoginMixin, admin.AdminSite):
    """``/admin/``: Reverie's operators, and nobody else (a superuser included)."""

    site_header = "Reverie operator admin"
    site_title = "Reverie operator admin"
    index_title = "Operate Reverie"
    site_url = None
    login_form = OperatorAuthenticationForm

    def has_permission(self, request):
        return is_operator(request.user)
