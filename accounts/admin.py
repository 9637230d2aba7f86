"""The operator admin's pages about accounts: principals, tokens, the operator trail.

Operators see and change only content-free fields. No page here issues or
rotates a token (either would show a secret that acts as the owner), sets a
password or adds a user: owners make their own tokens on the review site, and
the machine's administrator does the rest from the shell. Each change an
operator makes goes through a service that records it in the operator trail.
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from .models import ApiToken, OperatorAction, User
from .operators import operator_of
from .services import api_token_revoke, principal_activation_set


class ContentFreeAdmin(admin.ModelAdmin):
    """Never add or delete; subclasses say what, if anything, may change."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(User)
class PrincipalAdmin(ContentFreeAdmin):
    """Principals (accounts): who they are, and whether they may sign in.

    The only change an operator makes is to activate or deactivate an account.
    A plain ModelAdmin, not Django's UserAdmin: no password page, no add page.
    Whether the owner opted out of model processing is shown, read-only: it is
    the owner's choice, made on the review site.
    """

    list_display = ("username", "public_id", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "model_processing_opt_out")
    search_fields = ("username",)
    fields = (
        "username",
        "public_id",
        "is_active",
        "is_staff",
        "model_processing_opt_out",
        "date_joined",
        "last_login",
    )
    readonly_fields = (
        "username",
        "public_id",
        "is_staff",
        "model_processing_opt_out",
        "date_joined",
        "last_login",
    )

    def save_model(
        self, request: HttpRequest, obj: User, form: "ModelForm[User]", change: bool
    ) -> None:
        if "is_active" in form.changed_data:
            principal_activation_set(
                principal=User.objects.get(pk=obj.pk),
                active=obj.is_active,
                actor=operator_of(request),
                via=OperatorAction.Via.ADMIN,
            )


@admin.register(ApiToken)
class ApiTokenAdmin(ContentFreeAdmin):
    """Tokens listed without their secrets; an operator may revoke one, nothing more."""

    list_display = ("name", "principal", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("principal__username", "name", "prefix")
    fields = readonly_fields = (
        "public_id",
        "principal",
        "name",
        "prefix",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    actions = ["revoke_selected"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The change page is read-only; revocation is the list's action.
        return False

    @admin.action(description="Revoke selected tokens", permissions=["revoke"])
    def revoke_selected(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        actor = operator_of(request)
        revoked = 0
        for token in queryset:
            api_token_revoke(token_id=token.public_id, actor=actor, via=OperatorAction.Via.ADMIN)
            revoked += 1
        self.message_user(request, f"{revoked} token(s) revoked.", messages.SUCCESS)

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.change_apitoken")


@admin.register(OperatorAction)
class OperatorActionAdmin(ContentFreeAdmin):
    """The operator trail, read-only."""

    list_display = ("created_at", "actor_name", "via", "action", "principal", "target")
    list_filter = ("action", "via")
    search_fields = ("actor_name", "principal__username", "target")
    fields = readonly_fields = (
        "created_at",
        "actor_name",
        "via",
        "action",
        "principal",
        "target",
        "details",
    )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
