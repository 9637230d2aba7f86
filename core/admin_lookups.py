"""Admin change lists filter only by what they declare.

Django's admin applies whatever lookup a change list's query string names to the
list's queryset, on any field that is not a relation: ``?password__startswith=``
answers whether a hash starts so, one character at a time, and a lookup the
database cannot run (``?statement__regex=(``, ``?date_joined__year=99999999999``)
is a server error. A list here accepts the parameters its own ``list_filter``
and ``date_hierarchy`` generate and nothing else; anything else is refused with
a 400 page before the list is queried. Search (``?q=``) reaches only
``search_fields``, and page, ordering and the like are not lookups at all.

``DeclaredLookupsSite`` puts ``DeclaredLookupsOnly`` under every ``ModelAdmin``
registered on the site, third-party ones included.
"""

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.admin.exceptions import (
    DisallowedModelAdminLookup,
    DisallowedModelAdminToField,
)
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.admin.views.main import ERROR_FLAG, IGNORED_PARAMS, PAGE_VAR
from django.db.models import Field, Model
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

if TYPE_CHECKING:
    # The mixins' hosts, for the checker: at run time ModelAdmin and AdminSite come
    # after the mixin in the class's bases.
    _ModelAdminBase = admin.ModelAdmin[Any]
    _AdminSiteBase = admin.AdminSite
else:
    _ModelAdminBase = object
    _AdminSiteBase = object

# Query-string parameters of a change list that are not lookups.
NOT_LOOKUPS = frozenset((*IGNORED_PARAMS, PAGE_VAR, ERROR_FLAG))

# The date drill-down's parameters and the values it can turn into a range: a
# year past 9998 has no next year to end the range at (a server error in the
# admin), and a number too large for a date overflows.
DATE_PARTS = {"year": (1, 9998), "month": (1, 12), "day": (1, 31)}

# What a refusal keeps of the names asked for: enough to see what was tried.
REFUSED_NAMES_KEPT = 20
REFUSED_NAME_LENGTH = 100

LOOKUP_REFUSED_TEMPLATE = "admin/lookup_refused.html"


def date_part_valid(value: str, low: int, high: int) -> bool:
    return value.isascii() and value.isdigit() and len(value) <= 4 and low <= int(value) <= high


def filter_parameters(
    model_admin: "admin.ModelAdmin[Any]", request: HttpRequest, item: Any
) -> list[str]:
    """The query-string parameters one ``list_filter`` entry reads."""
    if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
        # Its one parameter, without running its ``lookups`` (a query, perhaps).
        return [item.parameter_name] if item.parameter_name is not None else []
    if isinstance(item, (list, tuple)):
        field, filter_class = item
    elif callable(item):
        return item(request, {}, model_admin.model, model_admin).expected_parameters()
    else:
        field, filter_class = item, admin.FieldListFilter.create
    field_path = None
    if not isinstance(field, Field):
        field_path, field = field, get_fields_from_path(model_admin.model, field)[-1]
    # Built as the change list builds it, with nothing chosen: its parameters are
    # those of the links the list shows beside it.
    spec = filter_class(field, request, {}, model_admin.model, model_admin, field_path=field_path)
    return spec.expected_parameters()


class DeclaredLookupsOnly(_ModelAdminBase):
    """A ``ModelAdmin`` mixin: the change list takes only its declared filters' lookups."""

    def declared_lookups(self, request: HttpRequest) -> set[str]:
        """The lookup parameters this list's filters read."""
        return {
            name
            for item in self.get_list_filter(request)
            for name in filter_parameters(self, request, item)
        }

    def date_lookups(self) -> dict[str, tuple[int, int]]:
        if not self.date_hierarchy:
            return {}
        return {f"{self.date_hierarchy}__{part}": bounds for part, bounds in DATE_PARTS.items()}

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # Django's own answer allows any lookup on a field that is not a relation.
        bounds = self.date_lookups().get(lookup)
        if bounds is not None:
            return date_part_valid(value, *bounds)
        # Without the request the filters cannot say what they read: nothing is declared.
        return request is not None and lookup in self.declared_lookups(request)

    def refused_lookups(self, request: HttpRequest) -> list[str]:
        """The lookups of ``request`` this list does not offer (not those with a bad value)."""
        offered = NOT_LOOKUPS | self.declared_lookups(request) | set(self.date_lookups())
        refused = sorted(key for key in request.GET if key not in offered)
        return [name[:REFUSED_NAME_LENGTH] for name in refused[:REFUSED_NAMES_KEPT]]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().changelist_view(request, extra_context)
        except (DisallowedModelAdminLookup, DisallowedModelAdminToField):
            return self.lookup_refused_view(request)

    def lookup_refused_view(self, request: HttpRequest) -> HttpResponse:
        """A 400 page of the site: the list was not filtered; a link to it as it is."""
        refused = self.refused_lookups(request)
        site = self.admin_site
        template = LOOKUP_REFUSED_TEMPLATE
        if isinstance(site, DeclaredLookupsSite):
            template = site.lookup_refused_template
            if refused:
                site.lookups_refused(request, model_admin=self, lookups=refused)
        request.current_app = site.name
        return TemplateResponse(
            request,
            template,
            {
                **site.each_context(request),
                "title": "This list cannot be filtered that way",
                "opts": self.opts,
                "refused": refused,
                "list_url": request.path,
            },
            status=400,
        )


class DeclaredLookupsSite(_AdminSiteBase):
    """An ``AdminSite`` mixin: every ``ModelAdmin`` registered here takes only the lookups
    its filters declare (``DeclaredLookupsOnly``), added under it if it lacks it."""

    lookup_refused_template = LOOKUP_REFUSED_TEMPLATE

    def register(
        self,
        model_or_iterable: type[Model] | Iterable[type[Model]],
        admin_class: type["admin.ModelAdmin[Any]"] | None = None,
        **options: Any,
    ) -> None:
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, DeclaredLookupsOnly):
            admin_class = type(
                admin_class.__name__,
                (DeclaredLookupsOnly, admin_class),
                {"__module__": admin_class.__module__, "__qualname__": admin_class.__qualname__},
            )
        super().register(model_or_iterable, admin_class, **options)

    def lookups_refused(
        self, request: HttpRequest, *, model_admin: "admin.ModelAdmin[Any]", lookups: list[str]
    ) -> None:
        """Called with the names of the lookups a list refused; a site records them or not."""
