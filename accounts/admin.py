from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


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
