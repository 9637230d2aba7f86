"""What the Synthesis and Operations pages share: the surface gate and the action form."""

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from common.review.base import OwnerAdmin
from common.review.site import SectionUnavailable
from common.selectors.flags import surfaces_enabled
from memory.services.idempotency import IDEMPOTENCY_KEY_MAX_CHARS

SURFACE = "reconsolidation_surface"


def surface_visible(request: HttpRequest | None = None) -> bool:
    return surfaces_enabled((SURFACE,))


class SurfaceOwnerAdmin(OwnerAdmin):
    """Owner pages that exist only while the reconsolidation surface is on: off, every page
    answers 404 and the section leaves the navigation."""

    # The section's name on the "not available" page.
    section_label = "Synthesis"
    # Each kind of row by the name the owner reads (``KindFilter``).
    kind_labels: dict[str, str]

    def require_surface(self) -> None:
        if not surface_visible():
            raise SectionUnavailable(self.section_label)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return surface_visible() and super().has_module_permission(request)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        self.require_surface()
        return super().changelist_view(request, extra_context)


class KindFilter(admin.SimpleListFilter):
    """Kinds by the names the owner reads on every other page (the admin's ``kind_labels``),
    not the model's: a notice is a "Possible contradiction" here too."""

    title = "kind"
    parameter_name = "kind"

    def lookups(
        self, request: HttpRequest, model_admin: "admin.ModelAdmin[Any]"
    ) -> list[tuple[str, str]]:
        # Only the Synthesis and Operations pages list this filter.
        assert isinstance(model_admin, SurfaceOwnerAdmin)
        return list(model_admin.kind_labels.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(kind=self.value()) if self.value() else queryset


class ActionForm(forms.Form):
    """The revision the owner saw, and the key that makes a second click a replay."""

    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(
        max_length=IDEMPOTENCY_KEY_MAX_CHARS, widget=forms.HiddenInput
    )
