import uuid
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import validation_error
from memory.api.base import ApiView, Page, errors, principal_of
from memory.api.serializers import AccessRecordOutput
from memory.models import AccessRecord
from memory.selectors.access import access_items, access_record_list


def _uuid_param(request: Request, name: str) -> uuid.UUID | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise validation_error(f"{name} must be an id (a UUID).", field=name) from None


def _time_param(request: Request, name: str) -> datetime | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        moment = parse_datetime(raw)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise validation_error(f"{name} must be an ISO-8601 time with a timezone.", field=name)
    return moment


def _record_view(record: AccessRecord) -> dict[str, Any]:
    return {
        "id": record.public_id,
        "token_id": record.token.public_id,
        "token_name": record.token.name,
        "route": record.route,
        "request_id": record.request_id,
        "at": record.created_at,
        **access_items(record),
    }


class AccessListApi(ApiView):
    # Which assistant read what is the owner's to see, not another assistant's.
    needs_full_reach = True

    @extend_schema(
        operation_id="access_list",
        description=(
            "Which of the caller's tokens read what, newest first: one record per read made "
            "with a token (recall, memory lists and reads, history, messages, derived "
            "memories, export), with the route's name, the request id and the ids of the "
            "memories, messages and derived memories its answer carried; never a query and "
            "never any text. Reads in the owner's browser session are not recorded. Records "
            "are kept REVERIE_ACCESS_RETENTION_DAYS (90 by default)."
        ),
        parameters=[
            OpenApiParameter("token", str, description="Only the reads of this token (its id)."),
            OpenApiParameter("memory", str, description="Only the reads that returned it."),
            OpenApiParameter("since", str, description="Only reads at or after this time."),
            OpenApiParameter("limit", int, description="Page size (default 50)."),
            OpenApiParameter("offset", int, description="Records to skip."),
        ],
        responses={200: AccessRecordOutput(many=True), **errors("validation_error")},
    )
    def get(self, request: Request) -> Response:
        records = access_record_list(
            principal=principal_of(request),
            token_id=_uuid_param(request, "token"),
            memory_id=_uuid_param(request, "memory"),
            since=_time_param(request, "since"),
        )
        rows = Page(request).slice(records)
        return Response(AccessRecordOutput(map(_record_view, rows), many=True).data)
