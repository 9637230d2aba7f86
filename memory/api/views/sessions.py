import uuid
from dataclasses import replace
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from memory.api.base import (
    WITH_BODY,
    ApiView,
    Page,
    carries_message,
    errors,
    idempotent,
    int_param,
    principal_of,
    reach_of,
)
from memory.api.serializers import (
    EventAppendInput,
    EventOutput,
    SessionCreateInput,
    SessionOutput,
)
from memory.selectors.sessions import event_get, event_list, session_get, session_list
from memory.services.erasure import event_erase, session_erase
from memory.services.sessions import event_append, session_close, session_create

PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="Page size (default 50)."),
    OpenApiParameter("offset", int, description="Items to skip."),
]


def _session_now(request: Request, session_id: uuid.UUID | str) -> dict[str, Any]:
    session = session_get(
        principal=principal_of(request), session_id=session_id, reach=reach_of(request)
    )
    return SessionOutput(session).data


def _event_now(request: Request, event_id: uuid.UUID | str) -> dict[str, Any]:
    event = event_get(principal=principal_of(request), event_id=event_id, reach=reach_of(request))
    return EventOutput(event).data


def _appended_now(request: Request, event_id: uuid.UUID | str) -> dict[str, Any]:
    """A replayed append's message as it is now, whatever its label: a token kept from
    sensitive things may append a sensitive message, and its retry must not find it
    missing. The replay learns nothing it did not send: it carried the same request,
    the message's own parts."""
    reach = replace(reach_of(request), include_sensitive=True)
    event = event_get(principal=principal_of(request), event_id=event_id, reach=reach)
    return EventOutput(event).data


class SessionListApi(ApiView):
    @extend_schema(
        operation_id="sessions_list",
        parameters=PAGE_PARAMETERS,
        responses={200: SessionOutput(many=True), **errors("validation_error")},
    )
    def get(self, request: Request) -> Response:
        page = Page(request)
        sessions = page.slice(
            session_list(principal=principal_of(request), reach=reach_of(request))
        )
        body = SessionOutput(sessions, many=True).data
        # Sessions carry no message text: the read is recorded, with nothing in it.
        self.record_access()
        return Response(body)

    @extend_schema(
        operation_id="sessions_create",
        request=SessionCreateInput,
        responses={201: SessionOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_session_now)
    def post(self, request: Request) -> Response:
        data = self.input(SessionCreateInput)
        session = session_create(principal=principal_of(request), reach=reach_of(request), **data)
        return Response(SessionOutput(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(ApiView):
    @extend_schema(operation_id="sessions_get", responses={200: SessionOutput, **errors()})
    def get(self, request: Request, session_id: uuid.UUID) -> Response:
        session = session_get(
            principal=principal_of(request), session_id=session_id, reach=reach_of(request)
        )
        body = SessionOutput(session).data
        self.record_access()
        return Response(body)


class SessionCloseApi(ApiView):
    @extend_schema(
        operation_id="sessions_close",
        request=None,
        responses={200: SessionOutput, **errors(*WITH_BODY)},
    )
    @idempotent(_session_now)
    def post(self, request: Request, session_id: uuid.UUID) -> Response:
        session = session_close(
            principal=principal_of(request), session_id=session_id, reach=reach_of(request)
        )
        return Response(SessionOutput(session).data)


class SessionEraseApi(ApiView):
    @extend_schema(
        operation_id="sessions_erase",
        request=None,
        description="Erase every message of the session and the memories formed from them.",
        responses={200: SessionOutput, **errors(*WITH_BODY)},
    )
    @idempotent(_session_now)
    def post(self, request: Request, session_id: uuid.UUID) -> Response:
        session = session_erase(
            principal=principal_of(request), session_id=session_id, reach=reach_of(request)
        )
        return Response(SessionOutput(session).data)


class EventListApi(ApiView):
    @extend_schema(
        operation_id="events_list",
        parameters=[
            OpenApiParameter("after_sequence", int, description="Only events after this one."),
            OpenApiParameter("limit", int, description="Page size (default 100)."),
            OpenApiParameter("offset", int, description="Events to skip."),
        ],
        responses={200: EventOutput(many=True), **errors("validation_error")},
    )
    def get(self, request: Request, session_id: uuid.UUID) -> Response:
        after = int_param(request, "after_sequence", None, 0, None)
        page = Page(request, default=100)
        events = event_list(
            principal=principal_of(request),
            session_id=session_id,
            after_sequence=after,
            reach=reach_of(request),
        )
        events = page.slice(events.select_related("session"))
        body = EventOutput(events, many=True).data
        self.record_access(messages=[event["id"] for event in body])
        return Response(body)

    @extend_schema(
        operation_id="events_append",
        request=EventAppendInput,
        responses={201: EventOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_appended_now, carries=carries_message)
    def post(self, request: Request, session_id: uuid.UUID) -> Response:
        data = self.input(EventAppendInput)
        event = event_append(
            principal=principal_of(request),
            session_id=session_id,
            event_type=data["type"],
            parts=[dict(part) for part in data["parts"]],
            author_name=data["author_name"],
            external_id=data.get("external_id"),
            occurred_at=data.get("occurred_at"),
            reach=reach_of(request),
        )
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventEraseApi(ApiView):
    @extend_schema(
        operation_id="events_erase",
        request=None,
        description="Erase a message's text and the memories formed from it.",
        responses={200: EventOutput, **errors(*WITH_BODY)},
    )
    @idempotent(_event_now, carries=carries_message)
    def post(self, request: Request, event_id: uuid.UUID) -> Response:
        event = event_erase(
            principal=principal_of(request), event_id=event_id, reach=reach_of(request)
        )
        return Response(EventOutput(event).data)
