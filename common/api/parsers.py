"""The API's one body format: JSON, of bounded nesting."""

from collections.abc import Iterable, Mapping
from typing import IO, Any

from rest_framework.parsers import JSONParser

from core.errors import ReverieError, validation_error

# No request of the API nests deeper than a few levels (an event's parts hold
# objects in a list in an object); anything far deeper is refused before a
# recursive walk (Python's parser, a serializer) can exhaust the stack.
MAX_JSON_DEPTH = 32


def _too_deep(limit: int) -> ReverieError:
    return validation_error(f"The request body nests deeper than {limit} levels.", max_depth=limit)


def json_depth_check(data: object, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse ``data`` (``validation_error``) if it nests containers deeper than ``limit``."""
    pending: list[tuple[object, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise _too_deep(limit)
        pending.extend((child, depth + 1) for child in children)


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep(MAX_JSON_DEPTH) from None
        json_depth_check(data)
        return data
