from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

if TYPE_CHECKING:
    # The mixin's host, for the checker: at run time AdminSite comes after it in the bases.
    _AdminSiteBase = admin.AdminSite
else:
    _AdminSiteBase = object


class SiteLoginMixin(_AdminSiteBase):
    """An ``AdminSite`` whose sign-in lands on the site's own home page when ``next`` is
    missing or points off the site.

    Django's ``AdminSite.login`` falls back to ``LOGIN_REDIRECT_URL``, one URL for
    every site (``/accounts/profile/`` by default, which Reverie does not have).
    This is that view with the site's index as the fallback.
    """

    @method_decorator(never_cache)
    @login_not_required
    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        index = reverse("admin:index", current_app=self.name)
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(index)
        context = {
            **self.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = index
        context.update(extra_context or {})
        request.current_app = self.name
        response = LoginView.as_view(
            extra_context=context,
            authentication_form=self.login_form,
            template_name=self.login_template or "admin/login.html",
            next_page=index,
        )(request)
        # LoginView answers with its page or a redirect: never a streamed response.
        assert isinstance(response, HttpResponse)
        return response
