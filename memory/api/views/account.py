from django.http import JsonResponse
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from memory.api.base import WITH_BODY, ApiView, errors, principal_of
from memory.api.serializers import ErasureConfirmInput, ErasureOutput, ErasureRequestOutput
from memory.services.account import account_erase, account_erasure_request, account_export


class ExportApi(ApiView):
    needs_full_reach = True

    @extend_schema(
        operation_id="export",
        description="Every session (with its log) and every memory of the caller, as JSON.",
        responses={200: OpenApiTypes.OBJECT, **errors()},
    )
    def get(self, request: Request) -> JsonResponse:
        export = account_export(principal=principal_of(request))
        self.record_access(
            memories=[memory["id"] for memory in export["memories"]],
            messages=[event["id"] for session in export["sessions"] for event in session["events"]],
            derived=[derived["id"] for derived in export.get("derived_memories", ())],
        )
        response = JsonResponse(export, encoder=JSONEncoder)
        response["Content-Disposition"] = 'attachment; filename="reverie-export.json"'
        return response


class ErasureRequestApi(ApiView):
    needs_full_reach = True

    @extend_schema(
        operation_id="account_erasure_request",
        request=None,
        description=(
            "First step of erasing the whole account: returns a token that confirms it "
            "within ten minutes. Nothing is erased yet."
        ),
        responses={202: ErasureRequestOutput, **errors(*WITH_BODY)},
    )
    def post(self, request: Request) -> Response:
        return Response(
            ErasureRequestOutput(account_erasure_request(principal=principal_of(request))).data,
            status=status.HTTP_202_ACCEPTED,
        )


class ErasureConfirmApi(ApiView):
    needs_full_reach = True

    @extend_schema(
        operation_id="account_erasure_confirm",
        request=ErasureConfirmInput,
        description=(
            "Irreversibly erase the caller: every session, message, memory and token. "
            "Returns content-free counts of what was deleted."
        ),
        responses={200: ErasureOutput, **errors(*WITH_BODY, "conflict")},
    )
    def post(self, request: Request) -> Response:
        data = self.input(ErasureConfirmInput)
        erased = account_erase(principal=principal_of(request), token=data["token"])
        return Response(ErasureOutput({"erased": erased}).data)
