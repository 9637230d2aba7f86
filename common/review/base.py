"""What every page of the owner review site shares.

Rows are addressed by public id (a UUID), never by database key, and are only
ever fetched through selectors scoped to the signed-in user, so another
owner's id answers 404 exactly like a missing one. The admin's own forms are
read-only: nobody adds, edits or deletes a row through them.
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.models import User
from core.admin_lookups import DeclaredLookupsOnly
from core.errors import ReverieError

if TYPE_CHECKING:
    from django.contrib.admin.filters import _ListFilterChoices


def owner_of(request: HttpRequest) -> User:
    """The owner a review-site request is made by. The site lets only signed-in accounts
    through its views; a request without one is refused all the same."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


class PublicIdChangeList(ChangeList):
    """A change list whose rows link to their change pages by public id."""

    model_admin: "OwnerAdmin"

    def url_for_result(self, result: Model) -> str:
        return self.model_admin.change_url(result)


class OwnerAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """Read-only pages over the signed-in owner's own rows.

    Subclasses list rows through a selector (``get_queryset``) and fetch one
    through a selector (``get_owned``); both are scoped to ``request.user``.
    A list filters only by the filters it declares, even over the owner's own
    rows: any other lookup could fail in the database (``core.admin_lookups``).
    """

    actions: Sequence[Any] | None = None

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        # The selection is posted as database keys; anything but digits would
        # fail inside the query. Scoping to the owner is the queryset's job.
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not all(value.isascii() and value.isdigit() and len(value) < 19 for value in selected):
            self.message_user(
                request, "That selection is not valid; nothing was changed.", messages.ERROR
            )
            return HttpResponseRedirect(request.get_full_path())
        return super().response_action(request, queryset)

    def get_owned(self, request: HttpRequest, object_id: str) -> Any:
        """The owner's row with this public id; raises ``ReverieError`` if there is none."""
        raise NotImplementedError

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        try:
            return self.get_owned(request, object_id)
        except ReverieError:
            return None

    def get_object_or_404(self, request: HttpRequest, object_id: str) -> Any:
        obj = self.get_object(request, object_id)
        if obj is None:
            raise Http404
        return obj

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return PublicIdChangeList

    def change_url(self, obj: Any) -> str:
        """The change page of ``obj``, a row with a ``public_id``."""
        opts = obj._meta
        return reverse(
            f"{self.admin_site.name}:{opts.app_label}_{opts.model_name}_change",
            args=[obj.public_id],
        )

    def change_context(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        """Extra template context for the change page of ``obj``."""
        return {}

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # Looked up first so that another owner's id is a 404, not the admin's
        # "does not exist" redirect or a 403 on POST.
        obj = self.get_object_or_404(request, object_id)
        context = {**self.change_context(request, obj), **(extra_context or {})}
        return super().change_view(request, object_id, form_url, context)

    # The admin's own history (its log) is never written here, and rows are
    # never deleted through the admin; pages that need either override these.

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        raise Http404

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        raise Http404

    def render(
        self, request: HttpRequest, template: str, context: dict[str, Any]
    ) -> TemplateResponse:
        request.current_app = self.admin_site.name
        return TemplateResponse(
            request,
            template,
            {**self.admin_site.each_context(request), "opts": self.opts, **context},
        )

    # Any active user may look at their own rows; nobody writes through the
    # admin's forms. The rows reaching these checks already come from
    # owner-scoped selectors; the owner test on ``obj`` is a second guard.

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_active and (obj is None or obj.owner_id == request.user.pk)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DefaultChoiceFilter(admin.SimpleListFilter):
    """A list filter that applies ``default`` when the owner picked nothing; ``ALL`` is a
    choice of its own rather than the admin's unfiltered "All"."""

    default = ""
    ALL = "all"

    def choices(self, changelist: ChangeList) -> Iterator["_ListFilterChoices"]:
        # SimpleListFilter refuses, on creation, a filter that names no parameter.
        assert self.parameter_name is not None
        for lookup, title in self.lookup_choices:
            yield {
                "selected": (self.value() or self.default) == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value() or self.default
        return queryset if value == self.ALL else self.chosen(queryset, value)

    def chosen(self, queryset: QuerySet[Any], value: str) -> QuerySet[Any]:
        """``queryset`` narrowed to the choice ``value``."""
        raise NotImplementedError


def fieldset_fields(fieldsets: Sequence[tuple[Any, Mapping[str, Any]]]) -> tuple[str, ...]:
    """Every field ``fieldsets`` shows, in order: those set side by side on one line
    (a tuple in a fieldset's ``fields``) each in its place."""
    names: list[str] = []
    for _, options in fieldsets:
        for entry in options["fields"]:
            names.extend([entry] if isinstance(entry, str) else entry)
    return tuple(names)


def redirect_back(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """Redirect to the ``next`` URL the form named, if it is on this site; else ``default``."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)
