"""What ``reverie-mcp`` tells the model when a call fails.

Every failure the model can act on is answered as ``<code>: <plain words>``, the code
from the service's closed error vocabulary (``validation_error``, ``not_found``,
``conflict``, ...), whether the service refused the call or the server did before
sending it (an argument out of range, a malformed id). The words never carry a
validation library's text or links.
"""

import uuid
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS

from .errors import ApiError, NotFoundError, ReverieError, ValidationError


def refusal(error: ReverieError) -> str:
    """What the model reads when the service refused: the code first, then the why."""
    if isinstance(error, ApiError):
        details = ", ".join(f"{key}={value}" for key, value in sorted(error.details.items()))
        text = f"{error.code}: {error.message}" + (f" ({details})" if details else "")
        return text + (f" [request_id={error.request_id}]" if error.request_id else "")
    return f"service unavailable: {error}"


def tool_refusal(error: ReverieError) -> ToolError:
    return ToolError(refusal(error))


def resource_refusal(error: ReverieError) -> MCPError:
    # Raised as the protocol error itself: a ResourceError would be logged by the SDK,
    # and a memory that is not there is the caller's news, not the operator's.
    caller_fixable = isinstance(error, NotFoundError | ValidationError)
    code = INVALID_PARAMS if caller_fixable else INTERNAL_ERROR
    return MCPError(code=code, message=refusal(error))


def checked_id(value: str, field: str, refuse: Callable[[str], Exception] = ToolError) -> str:
    """``value`` as the service writes its ids, else ``refuse`` with a
    ``validation_error`` naming ``field``. Checked before any request: the API has no
    route for a malformed id, and would answer only that the route does not exist."""
    try:
        return str(uuid.UUID(value))
    except (ValueError, TypeError, AttributeError):
        raise refuse(
            f"validation_error: {field} must be an id as Reverie gives it (a UUID)."
        ) from None


def invalid_resource(text: str) -> MCPError:
    return MCPError(code=INVALID_PARAMS, message=text)


def invalid_arguments(errors: list[dict[str, Any]], schema: dict[str, Any]) -> str:
    """A ``validation_error`` for arguments that do not fit a tool's input ``schema``,
    saying for each field what it must be (taken from the schema the model was given)."""
    properties = schema.get("properties", {})
    said: dict[str, str] = {}
    for error in errors:
        field = str(error["loc"][0]) if error.get("loc") else "the arguments"
        if error.get("type") == "missing":
            said.setdefault(field, f"{field} is required.")
        else:
            said.setdefault(field, f"{field} must be {_expected(properties.get(field, {}))}.")
    return "validation_error: " + " ".join(said.values())


def _expected(schema: dict[str, Any]) -> str:
    options = [option for option in schema.get("anyOf", [schema]) if option.get("type") != "null"]
    kind = options[0] if len(options) == 1 else {}
    if "enum" in kind:
        return "one of: " + ", ".join(str(choice) for choice in kind["enum"])
    if kind.get("type") == "integer":
        return "a whole number" + _bounds(kind.get("minimum"), kind.get("maximum"))
    if kind.get("type") == "string":
        low, high = kind.get("minLength"), kind.get("maxLength")
        if low is not None and high is not None:
            return f"text of {low} to {high} characters"
        if low == 1:
            return "text that is not empty"
        return "text" + _bounds(low, high, unit=" characters")
    if kind.get("type") == "boolean":
        return "true or false"
    return "a value this tool takes (see its input schema)"


def _bounds(low: Any, high: Any, *, unit: str = "") -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}{unit}"
    if low is not None:
        return f" of at least {low}{unit}"
    if high is not None:
        return f" of at most {high}{unit}"
    return ""
