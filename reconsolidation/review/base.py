"""What the Synthesis and Operations pages share: the surface gate and the action form."""

from django import forms
from django.contrib import admin

from common.review.base import OwnerAdmin
from common.review.site import SectionUnavailable
from common.selectors.flags import surfaces_enabled
from memory.services.idempotency import IDEMPOTENCY_KEY_MAX_CHARS

SURFACE = "reconsolidation_surface"


def surface_visible(request=None):
    return surfaces_enabled((SURFACE,))


class SurfaceOwnerAdmin(OwnerAdmin):
    """Owner pages that exist only while the reconsolidation surface is on: off, every page
    answers 404 and the section leaves the navigation."""

    # The section's name on the "not available" page.
    section_label = "Synthesis"

    def require_surface(self):
        if not surface_visible():
            raise SectionUnavailable(self.section_label)

    def has_module_permission(self, request):
        return surface_visible() and super().has_module_permission(request)

    def changelist_view(self, request, extra_context=None):
        self.require_surface()
        return super().changelist_view(request, extra_context)


class KindFilter(admin.SimpleListFilter):
    """Kinds by the names the owner reads on every other page (the admin's ``kind_labels``),
    not the model's: a notice is a "Possible contradiction" here too."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return list(model_admin.kind_labels.items())

    def queryset(self, request, queryset):
        return queryset.filter(kind=self.value()) if self.value() else queryset


class ActionForm(forms.Form):
    """The revision the owner saw, and the key that makes a second click a replay."""

    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(
        max_length=IDEMPOTENCY_KEY_MAX_CHARS, widget=forms.HiddenInput
    )
