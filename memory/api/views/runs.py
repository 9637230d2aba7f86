import uuid
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from memory.api.base import WITH_BODY, ApiView, errors, idempotent, principal_of, reach_of
from memory.api.serializers import RunFailInput, RunOutput
from memory.models import Run
from memory.selectors.sessions import run_get
from memory.services.sessions import run_complete, run_create, run_fail, run_wait


def _visible_run(request: Request, run_id: uuid.UUID | str) -> Run:
    return run_get(principal=principal_of(request), run_id=run_id, reach=reach_of(request))


def _run_now(request: Request, run_id: uuid.UUID | str) -> dict[str, Any]:
    return RunOutput(_visible_run(request, run_id)).data


class RunCreateApi(ApiView):
    @extend_schema(
        operation_id="runs_create",
        request=None,
        responses={201: RunOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_run_now)
    def post(self, request: Request, session_id: uuid.UUID) -> Response:
        run = run_create(
            principal=principal_of(request), session_id=session_id, reach=reach_of(request)
        )
        return Response(RunOutput(run).data, status=status.HTTP_201_CREATED)


class RunDetailApi(ApiView):
    @extend_schema(operation_id="runs_get", responses={200: RunOutput, **errors()})
    def get(self, request: Request, run_id: uuid.UUID) -> Response:
        body = RunOutput(_visible_run(request, run_id)).data
        self.record_access()
        return Response(body)


class RunCompleteApi(ApiView):
    @extend_schema(
        operation_id="runs_complete",
        request=None,
        responses={200: RunOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_run_now)
    def post(self, request: Request, run_id: uuid.UUID) -> Response:
        run = run_complete(principal=principal_of(request), run_id=run_id, reach=reach_of(request))
        return Response(RunOutput(run).data)


class RunFailApi(ApiView):
    @extend_schema(
        operation_id="runs_fail",
        request=RunFailInput,
        responses={200: RunOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_run_now)
    def post(self, request: Request, run_id: uuid.UUID) -> Response:
        data = self.input(RunFailInput, data=request.data or {})
        run = run_fail(
            principal=principal_of(request),
            run_id=run_id,
            error_code=data["error_code"],
            reach=reach_of(request),
        )
        return Response(RunOutput(run).data)


class RunWaitApi(ApiView):
    @extend_schema(
        operation_id="runs_wait",
        request=None,
        responses={200: RunOutput, **errors(*WITH_BODY, "conflict")},
    )
    @idempotent(_run_now)
    def post(self, request: Request, run_id: uuid.UUID) -> Response:
        run = run_wait(principal=principal_of(request), run_id=run_id, reach=reach_of(request))
        return Response(RunOutput(run).data)
