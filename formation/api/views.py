"""The owner's challenges: what formation left for them to decide, and their decision.

A challenge holds a memory of the owner's and a proposal that may have changed it; each
read is recorded as a read of both. The routes span every scope of the principal, so
they need a token of full reach. Keep and replace are the owner's acts: each takes an
optional ``Idempotency-Key``, and repeating a decision already made answers with the
challenge as it is.
"""

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from formation.challenge_selectors import (
    challenge_get,
    challenge_list,
    challenge_view,
    challenge_views,
)
from formation.challenges import challenge_keep, challenge_replace
from memory.api.base import ApiView, Carried, Page, errors, idempotent, principal_of, reach_of

from .serializers import ChallengeOutput, ChallengePageOutput


def _read(body: dict[str, Any]) -> Carried:
    """What one challenge's body carries of the owner's memories and messages."""
    memories = [body["standing"]["id"], *([body["replacement"]] if body["replacement"] else [])]
    messages = [source["event_id"] for source in body["proposal"]["sources"]]
    return {"memories": memories, "messages": messages}


def _challenge_now(request: Request, challenge_id: object) -> dict[str, Any]:
    principal = principal_of(request)
    data: dict[str, Any] = ChallengeOutput(
        challenge_view(principal, challenge_get(principal, str(challenge_id)))
    ).data
    return data


class ChallengeApiView(ApiView):
    needs_full_reach = True


class ChallengeListApi(ChallengeApiView):
    @extend_schema(
        operation_id="challenges_list",
        description=(
            "What may have changed: proposals formation would not let overrule a memory "
            "of yours (an explicit one, or one more messages support than the proposal "
            "cites), newest first, each beside the memory it challenges. Recall keeps the "
            "memory until you keep or replace it."
        ),
        parameters=[
            OpenApiParameter("state", str, description="open (default), kept or replaced."),
            OpenApiParameter("limit", int, description="Page size (default 50)."),
            OpenApiParameter("offset", int, description="Items to skip."),
        ],
        responses={200: ChallengePageOutput, **errors("validation_error")},
    )
    def get(self, request: Request) -> Response:
        principal = principal_of(request)
        page = Page(request)
        state = request.query_params.get("state", "open")
        rows = list(page.slice(challenge_list(principal, state=state)))
        body = {"results": ChallengeOutput(challenge_views(principal, rows), many=True).data}
        reads = [_read(row) for row in body["results"]]
        self.record_access(
            memories=[memory for read in reads for memory in read["memories"]],
            messages=[message for read in reads for message in read["messages"]],
        )
        return Response(body)


class ChallengeDetailApi(ChallengeApiView):
    @extend_schema(
        operation_id="challenges_get",
        responses={200: ChallengeOutput, **errors("validation_error")},
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        body = _challenge_now(request, challenge_id)
        self.record_access(**_read(body))
        return Response(body)


class ChallengeKeepApi(ChallengeApiView):
    @extend_schema(
        operation_id="challenges_keep",
        request=None,
        description=(
            "Keep the memory: the challenge closes, and the same proposal read again from "
            "the same messages does not reopen it. A provisional memory is confirmed."
        ),
        responses={200: ChallengeOutput, **errors("validation_error", "conflict")},
    )
    @idempotent(_challenge_now, carries=_read)
    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = challenge_keep(
            principal=principal_of(request), challenge_id=challenge_id, reach=reach_of(request)
        )
        return Response(_challenge_now(request, challenge.public_id))


class ChallengeReplaceApi(ChallengeApiView):
    @extend_schema(
        operation_id="challenges_replace",
        request=None,
        description=(
            "Replace the memory with the proposal: it becomes an explicit memory of yours, "
            "citing the proposal's messages, and supersedes (or, for a proposal that it no "
            "longer holds, retracts) the memory, as your own correction would."
        ),
        responses={200: ChallengeOutput, **errors("validation_error", "conflict")},
    )
    @idempotent(_challenge_now, carries=_read)
    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = challenge_replace(
            principal=principal_of(request), challenge_id=challenge_id, reach=reach_of(request)
        )
        return Response(_challenge_now(request, challenge.public_id))
