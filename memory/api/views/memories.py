import uuid
from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import validation_error
from memory.api.base import (
    WITH_BODY,
    ApiView,
    Page,
    carries_memory,
    errors,
    idempotent,
    int_param,
    principal_of,
    reach_of,
)
from memory.api.cursors import cursor_decode, cursor_encode
from memory.api.serializers import (
    DerivedOutput,
    HistoryOutput,
    MemoryCorrectInput,
    MemoryOutput,
    MemoryPageOutput,
    MemoryRememberInput,
    RevisionInput,
)
from memory.derived import derived_included
from memory.models import Belief
from memory.selectors.beliefs import (
    belief_changes,
    belief_detail,
    belief_history,
    belief_list,
)
from memory.services.beliefs import (
    belief_confirm,
    belief_correct,
    belief_delete,
    belief_reject,
    belief_remember,
)


def _memory_now(request: Request, memory_id: uuid.UUID | str) -> dict[str, Any]:
    """The memory as the request's reach shows it now: a write's answer and its replays
    alike, with only the sources the token reaches."""
    belief = belief_detail(
        principal=principal_of(request), belief_id=memory_id, reach=reach_of(request)
    )
    return MemoryOutput(belief).data


def _answer(request: Request, belief: Belief, status: int = status.HTTP_200_OK) -> Response:
    return Response(_memory_now(request, belief.public_id), status=status)


def _csv(request: Request, name: str) -> list[str] | None:
    raw = request.query_params.get(name)
    return None if raw is None else [value for value in raw.split(",") if value]


def _bool(request: Request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if raw.lower() in ("true", "1"):
        return True
    if raw.lower() in ("false", "0"):
        return False
    raise validation_error(f"{name} must be true or false.", field=name)


class MemoryListApi(ApiView):
    @extend_schema(
        operation_id="memories_list",
        parameters=[
            OpenApiParameter("status", str, description="Comma-separated statuses."),
            OpenApiParameter("type", str, description="Comma-separated types."),
            OpenApiParameter("needs_review", bool),
            OpenApiParameter(
                "changed_since",
                str,
                description=(
                    "A cursor from next_changed_since, or an ISO-8601 time: memories changed "
                    "after it, oldest change first. At-least-once: a recently changed memory "
                    "may come again; deduplicate by id and revision."
                ),
            ),
            OpenApiParameter("limit", int, description="Page size (default 50)."),
            OpenApiParameter("offset", int, description="Items to skip (without changed_since)."),
            OpenApiParameter(
                "include",
                str,
                description=(
                    "'derived' adds a separate list of derived memories (merges, summaries, "
                    "hypotheses, uncertainty notices), newest change first, while the "
                    "reconsolidation surface is on. The filters above apply to memories only."
                ),
            ),
            OpenApiParameter("derived_limit", int, description="Derived page size (default 50)."),
            OpenApiParameter("derived_offset", int, description="Derived memories to skip."),
        ],
        responses={200: MemoryPageOutput, **errors("validation_error")},
    )
    def get(self, request: Request) -> Response:
        principal, reach = principal_of(request), reach_of(request)
        surface = derived_included(include=_csv(request, "include"), reach=reach)
        beliefs = belief_list(
            principal=principal,
            statuses=_csv(request, "status"),
            types=_csv(request, "type"),
            needs_review=_bool(request, "needs_review"),
            reach=reach,
            related=True,
        )
        changed_since = request.query_params.get("changed_since")
        rows: list[Belief]
        cursor: str | None
        if changed_since is None:
            rows, cursor = list(Page(request).slice(beliefs)), None
        else:
            rows, position = belief_changes(
                principal=principal,
                after=cursor_decode(changed_since),
                limit=Page(request).limit,
                among=beliefs,
            )
            cursor = cursor_encode(position) or changed_since
        body: dict[str, Any] = {
            "results": MemoryOutput(rows, many=True).data,
            "next_changed_since": cursor,
        }
        if surface is not None:
            maximum = settings.REVERIE_LIMITS["api_page_max"]
            derived = surface.page(
                principal,
                limit=int_param(request, "derived_limit", 50, 1, maximum),
                offset=int_param(request, "derived_offset", 0, 0, None),
            )
            body["derived"] = DerivedOutput(derived, many=True).data
        self.record_access(
            memories=[row["id"] for row in body["results"]],
            derived=[row["id"] for row in body.get("derived", ())],
        )
        return Response(body)

    @extend_schema(
        operation_id="memories_remember",
        request=MemoryRememberInput,
        responses={201: MemoryOutput, **errors(*WITH_BODY)},
    )
    @idempotent(_memory_now, carries=carries_memory)
    def post(self, request: Request) -> Response:
        data = self.input(MemoryRememberInput)
        belief = belief_remember(principal=principal_of(request), reach=reach_of(request), **data)
        return _answer(request, belief, status.HTTP_201_CREATED)


class MemoryDetailApi(ApiView):
    @extend_schema(operation_id="memories_get", responses={200: MemoryOutput, **errors()})
    def get(self, request: Request, memory_id: uuid.UUID) -> Response:
        belief = belief_detail(
            principal=principal_of(request), belief_id=memory_id, reach=reach_of(request)
        )
        body = MemoryOutput(belief).data
        self.record_access(memories=[body["id"]])
        return Response(body)

    @extend_schema(
        operation_id="memories_delete",
        parameters=[OpenApiParameter("expected_revision", int, required=True)],
        description=(
            "Erase the memory and the versions it corrected: their text and excerpts are "
            "removed and a fence stops the claim being formed again from the same messages."
        ),
        responses={200: MemoryOutput, **errors("validation_error", "conflict")},
    )
    @idempotent(_memory_now, carries=carries_memory)
    def delete(self, request: Request, memory_id: uuid.UUID) -> Response:
        revision = int_param(request, "expected_revision", None, 1, None)
        if revision is None:
            raise validation_error("expected_revision is required.", field="expected_revision")
        belief = belief_delete(
            principal=principal_of(request),
            belief_id=memory_id,
            expected_revision=revision,
            reach=reach_of(request),
        )
        return _answer(request, belief)


class MemoryConfirmApi(ApiView):
    @extend_schema(
        operation_id="memories_confirm",
        description=(
            "The owner confirms a memory: a provisional one becomes active, the review it "
            "waited for is done, and it becomes the owner's own (authority 'explicit', "
            "confidence at least 0.95), so that nothing formed from later messages replaces "
            "it without asking the owner. A memory already active and reviewed is a conflict."
        ),
        request=RevisionInput,
        responses={200: MemoryOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_memory_now, carries=carries_memory)
    def post(self, request: Request, memory_id: uuid.UUID) -> Response:
        data = self.input(RevisionInput)
        belief = belief_confirm(
            principal=principal_of(request), belief_id=memory_id, reach=reach_of(request), **data
        )
        return _answer(request, belief)


class MemoryRejectApi(ApiView):
    @extend_schema(
        operation_id="memories_reject",
        request=RevisionInput,
        responses={200: MemoryOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_memory_now, carries=carries_memory)
    def post(self, request: Request, memory_id: uuid.UUID) -> Response:
        data = self.input(RevisionInput)
        belief = belief_reject(
            principal=principal_of(request), belief_id=memory_id, reach=reach_of(request), **data
        )
        return _answer(request, belief)


class MemoryCorrectApi(ApiView):
    @extend_schema(
        operation_id="memories_correct",
        request=MemoryCorrectInput,
        description="Returns the new memory, which supersedes the corrected one.",
        responses={201: MemoryOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_memory_now, carries=carries_memory)
    def post(self, request: Request, memory_id: uuid.UUID) -> Response:
        data = self.input(MemoryCorrectInput)
        belief = belief_correct(
            principal=principal_of(request), belief_id=memory_id, reach=reach_of(request), **data
        )
        return _answer(request, belief, status.HTTP_201_CREATED)


class MemoryHistoryApi(ApiView):
    @extend_schema(operation_id="memories_history", responses={200: HistoryOutput, **errors()})
    def get(self, request: Request, memory_id: uuid.UUID) -> Response:
        history = belief_history(
            principal=principal_of(request), belief_id=memory_id, reach=reach_of(request)
        )
        body = HistoryOutput(history).data
        self.record_access(memories=[version["id"] for version in body["versions"]])
        return Response(body)
