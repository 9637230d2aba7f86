"""Operations: the history of what reconsolidation did, each operation's page, and undo.

The undo page is the preview: the originals undo shows on their own again,
those it cannot bring back (erased or corrected since, and why) and the
derived views it sets aside; its button posts the revision the preview
showed, and a receipt page says what was done.
"""

import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from common.review.base import OwnerAdmin, owner_of
from core.errors import ReverieError
from memory.models import Belief
from memory.selectors.beliefs import belief_list
from reconsolidation.models import Operation
from reconsolidation.selectors.operations import (
    operation_detail,
    operation_get,
    operation_list,
    operation_receipt,
    undo_preview,
)
from reconsolidation.services.undo import operation_undo

from .base import ActionForm, KindFilter, SurfaceOwnerAdmin

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _Made(TypedDict):
    made_count: int


KIND_LABELS: dict[str, str] = {
    Operation.Kind.MERGE: "Merge",
    Operation.Kind.SUMMARY: "Summary",
    Operation.Kind.HYPOTHESIS: "Hypothesis",
    Operation.Kind.UNCERTAINTY_NOTICE: "Possible contradiction",
}


# Why an operation stopped holding, as the owner reads it.
INVALIDATION_REASONS = {
    "source_changed": "a memory it read changed",
    "regrouped": "its memories were regrouped",
    "owner_rejected": "you rejected what it made",
    "owner_deleted": "you deleted what it made",
    "owner_undo": "you undid it",
    "expired": "its evidence lifetime ended",
}


def operations_card(request: HttpRequest) -> dict[str, Any]:
    owner = owner_of(request)
    total = operation_list(owner).count()
    undoable = operation_list(owner, state=Operation.State.APPLIED).count()
    return {
        "count": total,
        "text": f"operation{'s' if total != 1 else ''} reconsolidation ran for you; "
        f"{undoable} applied and in effect. Read what each did, and undo a merge or summary.",
    }


class OperationAdmin(SurfaceOwnerAdmin):
    section_label = "Operations"
    list_display = ("kind_label", "state", "made", "created_at", "updated_at")
    list_display_links = ("kind_label",)
    list_filter = (KindFilter, "state")
    kind_labels = KIND_LABELS
    ordering = ("-created_at", "-id")
    change_list_template = "review/reconsolidation/operation_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Operation]:
        # Counted in the list's own query rather than once a row.
        return operation_list(owner_of(request)).annotate(made_count=Count("outputs"))

    def get_owned(self, request: HttpRequest, object_id: str) -> Operation:
        return operation_get(owner_of(request), object_id)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<str:object_id>/undo/",
                view(self.undo_view),
                name="reconsolidation_operation_undo",
            ),
            path(
                "<str:object_id>/receipt/<str:key>/",
                view(self.receipt_view),
                name="reconsolidation_operation_receipt",
            ),
            *super().get_urls(),
        ]

    @admin.display(description="Kind", ordering="kind")
    def kind_label(self, operation: Operation) -> str:
        return KIND_LABELS.get(operation.kind, operation.kind)

    @admin.display(description="What it made")
    def made(self, operation: "WithAnnotations[Operation, _Made]") -> str:
        count = operation.made_count
        return f"{count} derived view{'s' if count != 1 else ''}"

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(
            request, {"title": "Operations: what reconsolidation did", **(extra_context or {})}
        )

    def url(self, operation: Operation, name: str) -> str:
        return reverse(
            f"{self.admin_site.name}:reconsolidation_operation_{name}", args=[operation.public_id]
        )

    def _originals(
        self, request: HttpRequest, entries: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Preview or detail entries, each with its memory's row and page link."""
        memories = self.admin_site.get_model_admin(Belief)
        # Memory's pages, which link a row by its public id.
        assert isinstance(memories, OwnerAdmin)
        rows = {
            str(belief.public_id): belief
            for belief in belief_list(principal=owner_of(request)).filter(
                public_id__in=[entry["belief"] for entry in entries]
            )
        }
        return [
            {
                **entry,
                "memory": rows.get(entry["belief"]),
                "url": memories.change_url(rows[entry["belief"]])
                if entry["belief"] in rows
                else None,
            }
            for entry in entries
        ]

    def _derived(self, entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                **entry,
                # The shared list template reads the kind under the API's name.
                "derived_kind": entry.get("kind", ""),
                "url": reverse(
                    f"{self.admin_site.name}:reconsolidation_derivedmemory_change",
                    args=[entry["id"]],
                ),
            }
            for entry in entries
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        self.require_surface()
        operation = self.get_object_or_404(request, object_id)
        detail = operation_detail(owner_of(request), operation.public_id)
        preview = undo_preview(owner_of(request), operation.public_id)
        return self.render(
            request,
            "review/reconsolidation/operation.html",
            {
                "title": f"{KIND_LABELS.get(operation.kind, operation.kind)} operation",
                "operation": operation,
                "detail": detail,
                "inputs": self._originals(request, detail["inputs"]),
                "outputs": self._derived(detail["outputs"]),
                "receipts": [
                    {**receipt, "url": self.receipt_url(operation, receipt["key"])}
                    if receipt["action"] == "undo"
                    else receipt
                    for receipt in detail["receipts"]
                ],
                "why": INVALIDATION_REASONS.get(
                    detail["invalidation_reason"], detail["invalidation_reason"]
                ),
                "undoable": preview["undoable"],
                "refusal": preview["refusal"],
                "undo_url": self.url(operation, "undo"),
            },
        )

    def receipt_url(self, operation: Operation, key: str) -> str:
        return reverse(
            f"{self.admin_site.name}:reconsolidation_operation_receipt",
            args=[operation.public_id, key],
        )

    def undo_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The preview with its confirm button (GET), and the undo (POST)."""
        self.require_surface()
        operation = self.get_object_or_404(request, object_id)
        if request.method != "POST":
            preview = undo_preview(owner_of(request), operation.public_id)
            return self.render(
                request,
                "review/reconsolidation/undo_preview.html",
                {
                    "title": "Undo this operation?",
                    "operation": operation,
                    "kind_label": KIND_LABELS.get(operation.kind, operation.kind),
                    "preview": preview,
                    "restores": self._originals(request, preview["restores"]),
                    "does_not_restore": self._originals(request, preview["does_not_restore"]),
                    "sets_aside": self._derived(preview["sets_aside"]),
                    "operation_url": self.change_url(operation),
                    "form": ActionForm(
                        initial={
                            "expected_revision": preview["expected_revision"],
                            "idempotency_key": f"review-undo-{uuid.uuid4().hex}",
                        }
                    ),
                },
            )
        form = ActionForm(request.POST)
        if not form.is_valid():
            self.message_user(
                request,
                "Nothing was undone: the form did not say which version you saw.",
                messages.ERROR,
            )
            return HttpResponseRedirect(self.url(operation, "undo"))
        try:
            receipt = operation_undo(
                principal=owner_of(request),
                operation_id=operation.public_id,
                expected_revision=form.cleaned_data["expected_revision"],
                idempotency_key=form.cleaned_data["idempotency_key"],
            )
        except ReverieError as error:
            self.message_user(request, f"Nothing was undone: {error.message}", messages.ERROR)
            return HttpResponseRedirect(self.url(operation, "undo"))
        if receipt.replayed:
            self.message_user(request, "That undo was done already; here is its receipt.")
        else:
            self.message_user(request, "Undone.", messages.SUCCESS)
        return HttpResponseRedirect(self.receipt_url(operation, receipt.key))

    def receipt_view(self, request: HttpRequest, object_id: str, key: str) -> TemplateResponse:
        self.require_surface()
        operation = self.get_object_or_404(request, object_id)
        try:
            receipt = operation_receipt(owner_of(request), operation, key)
        except ReverieError:
            raise Http404 from None
        result = receipt.result
        kinds = {
            output["id"]: output["kind"]
            for output in operation_detail(owner_of(request), operation.public_id)["outputs"]
        }
        outputs = self._derived(
            [{**entry, "kind": kinds.get(entry["id"], "")} for entry in result.get("outputs", [])]
        )
        inputs = self._originals(request, result.get("inputs", []))
        return self.render(
            request,
            "review/reconsolidation/receipt.html",
            {
                "title": "Receipt",
                "operation": operation,
                "kind_label": KIND_LABELS.get(operation.kind, operation.kind),
                "receipt": receipt,
                "outputs": outputs,
                "restored": [entry for entry in inputs if entry["live"]],
                "not_restored": [entry for entry in inputs if not entry["live"]],
                "operation_url": self.change_url(operation),
            },
        )
