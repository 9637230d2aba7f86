"""The owner's reconsolidation routes: operations and their undo, derived memories and their
controls, and the summaries' evidence journal.

They exist only while both the ``memory_api`` and the ``reconsolidation_surface`` flags
are on (404 otherwise) and never depend on the ``reconsolidation`` processing flag:
an owner can always inspect and undo what was done. Every write names the revision it
read and takes an ``Idempotency-Key``; each writes a receipt with the change.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import validation_error
from memory.api.base import WITH_BODY, ApiView, Page, errors, int_param, principal_of
from memory.api.cursors import cursor_decode, cursor_encode
from memory.api.serializers import DerivedOutput, MemoryOutput, RevisionInput, StrictSerializer
from memory.selectors.beliefs import belief_detail
from memory.selectors.feeds import change_feed
from memory.services.idempotency import IDEMPOTENCY_KEY_PATTERN
from reconsolidation.models import Receipt
from reconsolidation.selectors.derived import derived_detail
from reconsolidation.selectors.operations import (
    operation_detail,
    operation_list,
    operation_view,
    receipt_view,
    undo_preview,
)
from reconsolidation.selectors.summaries import summary_detail
from reconsolidation.services.controls import derived_control
from reconsolidation.services.undo import operation_undo

from .serializers import (
    DerivedControlOutput,
    OperationDetailOutput,
    OperationOutput,
    OperationPageOutput,
    PromoteInput,
    SummaryJournalOutput,
    UndoOutput,
    UndoPreviewOutput,
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    location=OpenApiParameter.HEADER,
    pattern=IDEMPOTENCY_KEY_PATTERN,
    description=(
        "Replays return the first answer's receipt without acting again; shared with "
        "every other write of the owner, so one key names one request."
    ),
)


class ReconsolidationApiView(ApiView):
    surfaces = ("memory_api", "reconsolidation_surface")
    # Derived memories and operations span every scope of the principal.
    needs_full_reach = True

    def receipted_response(self, receipt: Receipt, body: dict[str, Any]) -> Response:
        headers = {"Idempotent-Replayed": "true"} if receipt.replayed else {}
        return Response(
            {"receipt": receipt_view(receipt), "replayed": receipt.replayed, **body},
            headers=headers,
        )


class OperationListApi(ReconsolidationApiView):
    @extend_schema(
        operation_id="operations_list",
        description="What reconsolidation did for the caller, newest first.",
        parameters=[
            OpenApiParameter(
                "kind", str, description="merge, summary, hypothesis or uncertainty_notice."
            ),
            OpenApiParameter(
                "state", str, description="planned, applied, invalidated, undone or failed."
            ),
            OpenApiParameter(
                "changed_since",
                str,
                description=(
                    "A cursor from next_changed_since, or an ISO-8601 time: operations changed "
                    "after it, oldest change first (at least once: deduplicate by id and "
                    "revision)."
                ),
            ),
            OpenApiParameter("limit", int, description="Page size (default 50)."),
            OpenApiParameter("offset", int, description="Items to skip (without changed_since)."),
        ],
        responses={200: OperationPageOutput, **errors("validation_error")},
    )
    def get(self, request: Request) -> Response:
        page = Page(request)
        changed_since = request.query_params.get("changed_since")
        operations = operation_list(
            principal_of(request),
            kind=request.query_params.get("kind"),
            state=request.query_params.get("state"),
        )
        cursor: str | None
        if changed_since is None:
            rows, cursor = list(page.slice(operations)), None
        else:
            rows, position = change_feed(
                operations, after=cursor_decode(changed_since), limit=page.limit
            )
            cursor = cursor_encode(position) or changed_since
        body = {
            "results": OperationOutput(map(operation_view, rows), many=True).data,
            "next_changed_since": cursor,
        }
        # Operations carry no memory text: the read is recorded, with nothing in it.
        self.record_access()
        return Response(body)


class OperationDetailApi(ReconsolidationApiView):
    @extend_schema(
        operation_id="operations_get",
        description=(
            "One operation: what it read (each original with the revision read and its "
            "status now), what it derived, and the receipts of what the owner did with it."
        ),
        responses={200: OperationDetailOutput, **errors("validation_error")},
    )
    def get(self, request: Request, operation_id: str) -> Response:
        body = OperationDetailOutput(operation_detail(principal_of(request), operation_id)).data
        # The derived memories it made, with their text; its inputs are ids and statuses.
        self.record_access(derived=[output["id"] for output in body["outputs"]])
        return Response(body)


class UndoPreviewApi(ReconsolidationApiView):
    @extend_schema(
        operation_id="operations_undo_preview",
        description=(
            "What undoing the operation would do: the originals it would show on their own "
            "again, those it cannot restore because they were erased or corrected since (and "
            "why), and the derived views it would set aside. Changes nothing."
        ),
        responses={200: UndoPreviewOutput, **errors("validation_error")},
    )
    def get(self, request: Request, operation_id: str) -> Response:
        body = UndoPreviewOutput(undo_preview(principal_of(request), operation_id)).data
        self.record_access(derived=[output["id"] for output in body["sets_aside"]])
        return Response(body)


class UndoApi(ReconsolidationApiView):
    @extend_schema(
        operation_id="operations_undo",
        request=RevisionInput,
        parameters=[IDEMPOTENCY_KEY],
        description=(
            "Undo a merge or a summary at the revision its preview showed. Returns the "
            "receipt; a replay under the same key returns the same receipt."
        ),
        responses={200: UndoOutput, **errors(*WITH_BODY, "conflict")},
    )
    def post(self, request: Request, operation_id: str) -> Response:
        data = self.input(RevisionInput)
        receipt = operation_undo(
            principal=principal_of(request),
            operation_id=operation_id,
            expected_revision=data["expected_revision"],
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        return self.receipted_response(receipt, {})


class _DerivedControls(ReconsolidationApiView):
    def control(
        self,
        request: Request,
        derived_id: str,
        action: str,
        *,
        expected_revision: int,
        statement: str | None = None,
    ) -> Response:
        principal = principal_of(request)
        receipt = derived_control(
            principal=principal,
            derived_id=derived_id,
            action=action,
            expected_revision=expected_revision,
            idempotency_key=request.headers.get("Idempotency-Key"),
            statement=statement,
        )
        # The current state, never a copy kept from the first answer: a replay after an
        # erasure shows the erasure.
        body = {"derived": DerivedOutput(derived_detail(principal, derived_id)).data}
        if "memory" in receipt.result:
            belief = belief_detail(principal=principal, belief_id=receipt.result["memory"])
            body["memory"] = MemoryOutput(belief).data
        self.record_access(
            derived=[body["derived"]["id"]],
            memories=[body["memory"]["id"]] if "memory" in body else [],
            after_write=True,
        )
        return self.receipted_response(receipt, body)


class DerivedControlApi(_DerivedControls):
    """A control of a derived memory: the ``action`` its URL names."""

    action = ""
    input_class: type[StrictSerializer] = RevisionInput

    def post(self, request: Request, derived_id: str) -> Response:
        return self.control(request, derived_id, self.action, **self.input(self.input_class))


_View = TypeVar("_View", bound=Callable[..., Response])


def _control_schema(
    action: str, description: str, request: type[StrictSerializer] = RevisionInput
) -> Callable[[_View], _View]:
    return extend_schema(
        operation_id=f"derived_{action}",
        request=request,
        parameters=[IDEMPOTENCY_KEY],
        description=description,
        responses={200: DerivedControlOutput, **errors(*WITH_BODY, "conflict")},
    )


class DerivedDetailApi(_DerivedControls):
    @extend_schema(
        operation_id="derived_get",
        description="One derived memory, with the ids of the originals it concerns.",
        responses={200: DerivedOutput, **errors("validation_error")},
    )
    def get(self, request: Request, derived_id: str) -> Response:
        body = DerivedOutput(derived_detail(principal_of(request), derived_id)).data
        self.record_access(derived=[body["id"]])
        return Response(body)

    @extend_schema(
        operation_id="derived_delete",
        parameters=[
            OpenApiParameter("expected_revision", {"type": "integer", "minimum": 1}, required=True),
            IDEMPOTENCY_KEY,
        ],
        description=(
            "Delete a derived memory: its generated text is erased and the same claim is "
            "never derived again. The originals do not change."
        ),
        responses={200: DerivedControlOutput, **errors("validation_error", "conflict")},
    )
    def delete(self, request: Request, derived_id: str) -> Response:
        revision = int_param(request, "expected_revision", None, 1, None)
        if revision is None:
            raise validation_error("expected_revision is required.", field="expected_revision")
        return self.control(request, derived_id, "delete", expected_revision=revision)


class DerivedReviewApi(DerivedControlApi):
    action = "review"

    @_control_schema("review", "Mark it reviewed; nothing else changes.")
    def post(self, request: Request, derived_id: str) -> Response:
        return super().post(request, derived_id)


class DerivedRestrictApi(DerivedControlApi):
    action = "restrict"

    @_control_schema(
        "restrict",
        "Keep it out of recall and withhold its text from every read; nothing is erased.",
    )
    def post(self, request: Request, derived_id: str) -> Response:
        return super().post(request, derived_id)


class DerivedUnrestrictApi(DerivedControlApi):
    action = "unrestrict"

    @_control_schema("unrestrict", "Lift a restriction.")
    def post(self, request: Request, derived_id: str) -> Response:
        return super().post(request, derived_id)


class DerivedRejectApi(DerivedControlApi):
    action = "reject"

    @_control_schema(
        "reject",
        "Not so: its generated text is erased and the same claim is never derived again. "
        "The originals do not change.",
    )
    def post(self, request: Request, derived_id: str) -> Response:
        return super().post(request, derived_id)


class DerivedPromoteApi(DerivedControlApi):
    action = "promote"
    input_class = PromoteInput

    @_control_schema(
        "promote",
        "Assert a hypothesis: it becomes a memory of yours (explicit, with the hypothesis's "
        "sources), and is never guessed again. Only an active, unexpired hypothesis.",
        request=PromoteInput,
    )
    def post(self, request: Request, derived_id: str) -> Response:
        return super().post(request, derived_id)


class SummaryJournalApi(ReconsolidationApiView):
    @extend_schema(
        operation_id="summaries_get",
        description=(
            "A summary's evidence journal: each claim with the originals that support it, as "
            "they are now (a tombstone for an erased one), the inputs it left out, and the "
            "operation that made it."
        ),
        responses={200: SummaryJournalOutput, **errors("validation_error")},
    )
    def get(self, request: Request, summary_id: str) -> Response:
        body = SummaryJournalOutput(summary_detail(principal_of(request), summary_id)).data
        # The originals it quotes, with their text now.
        quoted = [
            *(original for claim in body["claims"] for original in claim["supports"]),
            *body["omitted"],
        ]
        self.record_access(
            derived=[body["id"]], memories=[original["memory_id"] for original in quoted]
        )
        return Response(body)
