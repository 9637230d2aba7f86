from dataclasses import fields

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from memory.api.base import WITH_BODY, ApiView, errors
from memory.api.serializers import RecallInput, RecallOutput
from memory.selectors.recall import DERIVED_ONLY_FIELDS, recall


class RecallApi(ApiView):
    @extend_schema(
        operation_id="recall",
        request=RecallInput,
        description=(
            "The caller's active and provisional memories that best match the query, within a "
            "character budget, each with its sources; include=['messages'] adds original "
            "messages and include=['derived'] views derived from memories (merges, summaries, "
            "tentative hypotheses, uncertainty notices), fused by reciprocal rank. A read: it "
            "changes nothing, and a read made with a token is recorded for the owner (GET "
            "/access: the ids of the items returned, never the query)."
        ),
        responses={200: RecallOutput, **errors(*WITH_BODY)},
    )
    def post(self, request):
        data = self.input(RecallInput)
        result = recall(principal=request.user, reach=request.reach, **data)
        self.record_access(
            memories=[item.id for item in result.items if item.kind == "belief"],
            messages=[item.id for item in result.items if item.kind == "message"],
            derived=[item.id for item in result.items if item.kind == "derived"],
        )
        # The hot path of every assistant turn: plain dicts (the shape of
        # RecallOutput, which documents it) rather than a serializer pass.
        return Response(
            {
                "items": [_item(item) for item in result.items],
                "terms": result.terms,
                "chars": result.chars,
                "truncated": result.truncated,
            }
        )


def _item(item):
    body = {
        field.name: getattr(item, field.name)
        for field in fields(item)
        if item.kind == "derived" or field.name not in DERIVED_ONLY_FIELDS
    }
    body["sources"] = [
        {field.name: getattr(source, field.name) for field in fields(source)}
        for source in item.sources
    ]
    return body
