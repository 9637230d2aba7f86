from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Certificate


@admin.register(Certificate)
class CertificateAdmin(admin.ModelAdmin):
    """Certificates are issued by `manage.py certify` only; here operators read them."""

    list_display = ("capability", "policy_version", "short_code_digest", "arm", "issued_at")
    list_filter = ("capability",)
    readonly_fields = [field.name for field in Certificate._meta.fields]

    @admin.display(description="code digest")
    def short_code_digest(self, certificate: Certificate) -> str:
        return certificate.code_digest[:12]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
