from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from memory.api.base import WITH_BODY, ApiView, errors, principal_of, reach_of
from memory.api.serializers import RecallInput, RecallOutput
from memory.selectors.recall import DERIVED_ONLY_FIELDS, RecallItem, recall

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class RecallApi(ApiView):
    @extend_schema(
        operation_id="recall",
        request=RecallInput,
        description=(
            "The caller's active and provisional memories that best match the query, within a "
            "character budget, each with its sources; include=['messages'] adds original "
            "messages and include=['derived'] views derived from memories (merges, summaries, "
            "tentative hypotheses, uncertainty notices), fused by reciprocal rank; "
            "context_turns gives each message the turns around it as its context. Memories are "
            "found by their words and, unless embeddings are off, by meaning; a query asking "
            'what is known about the caller ("What do you know about me?") is answered with '
            "the owner's profile (profile: true). A read: it "
            "changes nothing, and a read made with a token is recorded for the owner (GET "
            "/access: the ids of the items and context turns returned, never the query)."
        ),
        responses={200: RecallOutput, **errors(*WITH_BODY)},
    )
    def post(self, request: Request) -> Response:
        data = self.input(RecallInput)
        result = recall(principal=principal_of(request), reach=reach_of(request), **data)
        # A context turn is read as the message it stands beside is.
        self.record_access(
            memories=[item.id for item in result.items if item.kind == "belief"],
            messages=[
                message_id
                for item in result.items
                if item.kind == "message"
                for message_id in (item.id, *(turn.id for turn in item.context))
            ],
            derived=[item.id for item in result.items if item.kind == "derived"],
        )
        # An answer without context keeps the shape it has always had.
        with_context = bool(data.get("context_turns"))
        # The hot path of every assistant turn: plain dicts (the shape of
        # RecallOutput, which documents it) rather than a serializer pass.
        return Response(
            {
                "items": [_item(item, with_context) for item in result.items],
                "terms": result.terms,
                "chars": result.chars,
                "truncated": result.truncated,
                "profile": result.profile,
            }
        )


def _item(item: RecallItem, with_context: bool) -> dict[str, Any]:
    body = _plain(item)
    if item.kind != "derived":
        for name in DERIVED_ONLY_FIELDS:
            del body[name]
    body["sources"] = [_plain(source) for source in item.sources]
    if with_context and item.kind == "message":
        body["context"] = [_plain(turn) for turn in item.context]
    else:
        del body["context"]
    return body


def _plain(value: "DataclassInstance") -> dict[str, Any]:
    # A dataclass instance's own attributes are its fields, in their order: copied at once,
    # where reading them field by field cost recall's answer more than building it.
    return dict(vars(value))
