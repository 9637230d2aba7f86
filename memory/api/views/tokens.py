import uuid
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import OperatorAction
from accounts.selectors import api_token_get
from accounts.services import api_token_pause, api_token_resume
from memory.api.base import ApiView, errors, idempotent, principal_of
from memory.api.serializers import TokenOutput


def _token_now(request: Request, token_id: uuid.UUID | str) -> dict[str, Any]:
    return TokenOutput(api_token_get(principal=principal_of(request), token_id=token_id)).data


class TokenPauseApi(ApiView):
    # A token that reaches only part of the memories may not switch off the
    # owner's other assistants.
    needs_full_reach = True

    @extend_schema(
        operation_id="tokens_pause",
        request=None,
        description=(
            "Pause one of the caller's tokens: from now on every request made with it is "
            "refused (403 forbidden, saying its owner paused it) until it is resumed. A paused "
            "token cannot resume itself."
        ),
        responses={200: TokenOutput, **errors("conflict")},
    )
    @idempotent(_token_now)
    def post(self, request: Request, token_id: uuid.UUID) -> Response:
        token = api_token_pause(
            token_id=token_id, principal=principal_of(request), via=OperatorAction.Via.API
        )
        return Response(TokenOutput(token).data)


class TokenResumeApi(ApiView):
    needs_full_reach = True

    @extend_schema(
        operation_id="tokens_resume",
        request=None,
        description="Resume a paused token of the caller's: it works again at once.",
        responses={200: TokenOutput, **errors("conflict")},
    )
    @idempotent(_token_now)
    def post(self, request: Request, token_id: uuid.UUID) -> Response:
        token = api_token_resume(
            token_id=token_id, principal=principal_of(request), via=OperatorAction.Via.API
        )
        return Response(TokenOutput(token).data)
