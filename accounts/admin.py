from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from memory.errors import ReverieError

from .models import ApiToken, User
from .services import api_token_create, api_token_revoke, api_token_rotate


@admin.register(User)
class PrincipalAdmin(UserAdmin):
    """Operators manage principals (accounts), never their memories."""

    readonly_fields = ("public_id", "last_login", "date_joined")
    list_display = ("username", "public_id", "is_active", "is_staff", "date_joined")
    fieldsets = (
        (None, {"fields": ("username", "password", "public_id")}),
        ("Personal info", {"fields": ("first_name", "last_name", "email")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    )


class ApiTokenCreateForm(forms.Form):
    principal = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_active=True))
    name = forms.CharField(max_length=100, initial="runtime")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Issue, rotate and revoke tokens; a secret is shown once, when it is issued."""

    list_display = ("name", "principal", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("principal__username", "name", "prefix")
    readonly_fields = (
        "public_id",
        "principal",
        "name",
        "prefix",
        "created_at",
        "created_by",
        "last_used_at",
        "revoked_at",
    )
    exclude = ("digest",)
    actions = ["revoke_selected", "rotate_selected"]

    def has_delete_permission(self, request, obj=None):
        # Revoked tokens stay listed, so an operator can see what was issued.
        return False

    def get_urls(self):
        return [
            path(
                "issue/",
                self.admin_site.admin_view(self.issue_view),
                name="accounts_apitoken_issue",
            ),
            *super().get_urls(),
        ]

    def add_view(self, request, form_url="", extra_context=None):
        return HttpResponseRedirect(reverse("admin:accounts_apitoken_issue"))

    def issue_view(self, request):
        if not self.has_add_permission(request):
            return HttpResponseRedirect(reverse("admin:index"))
        form = ApiTokenCreateForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                token, secret = api_token_create(
                    principal=form.cleaned_data["principal"],
                    name=form.cleaned_data["name"],
                    created_by=request.user,
                )
            except ReverieError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                return self._show_secret(request, token, secret)
        context = {
            **self.admin_site.each_context(request),
            "title": "Issue an API token",
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(request, "admin/accounts/apitoken/issue.html", context)

    def _show_secret(self, request, token, secret):
        context = {
            **self.admin_site.each_context(request),
            "title": "API token issued",
            "opts": self.model._meta,
            "token": token,
            "secret": secret,
        }
        return TemplateResponse(request, "admin/accounts/apitoken/secret.html", context)

    @admin.action(description="Revoke selected tokens")
    def revoke_selected(self, request, queryset):
        for token in queryset:
            api_token_revoke(token_id=token.public_id)
        self.message_user(request, f"{queryset.count()} token(s) revoked.", messages.SUCCESS)

    @admin.action(description="Rotate the selected token (shows its replacement's secret)")
    def rotate_selected(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Rotate one token at a time.", messages.ERROR)
            return None
        try:
            token, secret = api_token_rotate(
                token_id=queryset.get().public_id, created_by=request.user
            )
        except ReverieError as error:
            self.message_user(request, error.message, messages.ERROR)
            return None
        return self._show_secret(request, token, secret)
