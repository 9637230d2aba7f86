"""What every API view shares: the surface flag, idempotent writes, error docs."""

import functools
import json
import re
from collections.abc import Callable, Iterable
from typing import Any, Concatenate, ParamSpec, TypedDict, TypeVar
from uuid import UUID

from django.conf import settings
from django.db import models, transaction
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from accounts.models import ApiToken, User
from common.selectors.flags import surfaces_enabled
from core.errors import HTTP_STATUS_BY_CODE, validation_error
from memory.reach import Reach, reach_for
from memory.services.access_log import access_record
from memory.services.idempotency import (
    idempotency_complete,
    idempotency_fingerprint,
    idempotency_key_check,
    idempotency_reserve,
)

from .serializers import ErrorSerializer, StrictSerializer

_Model = TypeVar("_Model", bound=models.Model)
_Default = TypeVar("_Default", int, None)
_Data = TypeVar("_Data")
_View = TypeVar("_View", bound="ApiView")
_Params = ParamSpec("_Params")

# A write's method on its view: ``post(self, request, memory_id)`` and the like.
ViewMethod = Callable[Concatenate[_View, Request, _Params], Response]


def principal_of(request: Request) -> User:
    """The principal an API request acts for: its token's, or the signed-in owner's. Every
    route needs one; a request without one is refused all the same."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated
    return user


def token_of(request: Request) -> ApiToken | None:
    """The API token a request was made with; None in the owner's browser session."""
    token = request.auth
    if token is not None and not isinstance(token, ApiToken):
        # Only the authentication classes of settings.REST_FRAMEWORK run, and they
        # give a token or nothing: a credential of any other kind reaches nothing.
        raise exceptions.NotAuthenticated
    return token


def reach_of(request: Request) -> Reach:
    """What the request's credential reaches (``memory.reach``), as ``ApiView.initial`` set
    it on the request."""
    # An attribute ApiView adds to DRF's requests, which the stubs' Request lacks.
    reach: Reach = request.reach  # type: ignore[attr-defined]
    return reach


class Page:
    """``limit`` and ``offset`` query parameters, checked."""

    def __init__(self, request: Request, default: int = 50) -> None:
        maximum = settings.REVERIE_LIMITS["api_page_max"]
        self.limit = int_param(request, "limit", default, 1, maximum)
        self.offset = int_param(request, "offset", 0, 0, None)

    def slice(self, queryset: QuerySet[_Model]) -> QuerySet[_Model]:
        return queryset[self.offset : self.offset + self.limit]


# The largest value an unbounded integer parameter (an offset, a revision) may
# take: past it the database cannot compare or skip, and no bank is that big.
INT_PARAM_MAX = 2**31 - 1
_INTEGER_RE = re.compile(r"-?[0-9]{1,10}")


def int_param(
    request: Request, name: str, default: _Default, low: int, high: int | None = None
) -> int | _Default:
    """The integer query parameter ``name`` within ``low`` to ``high`` (or ``INT_PARAM_MAX``)."""
    high = INT_PARAM_MAX if high is None else high
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # Plain decimal digits, and few of them: int() would also take "1_000" and
    # " 7", and converting thousands of digits is slow in itself.
    value = int(raw) if _INTEGER_RE.fullmatch(raw) else None
    if value is None or not low <= value <= high:
        raise validation_error(f"{name} must be an integer between {low} and {high}.", field=name)
    return value


class ApiView(APIView):
    """A view of the memory API: 404 for everyone while one of its ``surfaces`` is off.

    Each request carries its ``reach`` (``memory.reach``): everything for
    the owner's browser session, what its token allows for a token. Selectors
    and services apply it to what they read and write; a route that spans the
    whole account says so with ``needs_full_reach``.
    """

    # Surface flags that must all be on for the route to exist.
    surfaces: tuple[str, ...] = ("memory_api",)
    # Routes over the whole account (export, erasure, the access log, token
    # controls, derived memories and operations): only for a token of full reach.
    needs_full_reach = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Before authentication, so that an off surface looks absent even to
        # callers without a valid token.
        if not surfaces_enabled(self.surfaces):
            raise exceptions.NotFound()
        super().initial(request, *args, **kwargs)
        reach = reach_for(token_of(request))
        request.reach = reach  # type: ignore[attr-defined]  # read back by reach_of
        if self.needs_full_reach:
            reach.check_full("this route")

    def record_access(
        self,
        *,
        memories: Iterable[str | UUID] = (),
        messages: Iterable[str | UUID] = (),
        derived: Iterable[str | UUID] = (),
        after_write: bool = False,
    ) -> int | None:
        """Record, for an answer given to a token, what it carried (public ids): the
        owner sees which assistant read what. The owner's own browser session is not
        recorded. Call it once the answer is built; it never fails the request.

        ``after_write``: the request wrote in its transaction, so the record is written
        in a savepoint, and one that fails takes nothing back with it but itself.
        """
        request = self.request
        record = functools.partial(
            access_record,
            principal=principal_of(request),
            token=token_of(request),
            route=_route_name(request),
            request_id=getattr(request, "request_id", ""),
            memories=memories,
            messages=messages,
            derived=derived,
        )
        if not after_write:
            return record()
        with transaction.atomic():
            return record()

    def input(self, serializer_class: type[StrictSerializer[_Data]], data: object = None) -> _Data:
        """Validated input of ``serializer_class`` from the body (or ``data``), in the shape
        the serializer declares."""
        payload = self.request.data if data is None else data
        if not isinstance(payload, dict):
            raise validation_error("The request body must be a JSON object.")
        serializer = serializer_class(data=payload)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def _route_name(request: Request) -> str:
    # URL resolution names the route before any view runs; a view called without it
    # records its reads all the same, under no name, as a record never fails a request.
    match = request.resolver_match
    return match.view_name if match is not None else ""


class Carried(TypedDict, total=False):
    """What an answer carries of the owner's memories, messages and derived memories, by
    public id: ``ApiView.record_access``'s arguments."""

    memories: list[str]
    messages: list[str]
    derived: list[str]


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), cls=JSONEncoder)
    return idempotency_fingerprint(f"{request.method} {request.get_full_path()}\n{body}")


def idempotent(
    current: Callable[[Request, str], object],
    *,
    carries: Callable[[dict[str, Any]], Carried] | None = None,
) -> Callable[[ViewMethod[_View, _Params]], ViewMethod[_View, _Params]]:
    """Make a write replayable under an ``Idempotency-Key`` header.

    ``current(request, resource_id)`` renders the resource the write answered
    with as it is now: a replay answers with the original status and that
    rendering, so whatever happened since (a correction, an erasure) shows,
    and no response text is ever stored.

    ``carries(body)`` names what an answer's body holds of the owner's
    memories and messages (``ApiView.record_access``'s arguments): the first
    answer and every replay of a write made with a token are recorded as the
    reads they also are.

    The key is reserved in the same transaction as the write. A concurrent
    request with the same key blocks on the reservation's unique index until
    the first commits, then replays instead of writing twice. The same key
    with a different request is a conflict. A failed write rolls the
    reservation back with everything else, so the key stays free for a retry.
    """

    def decorate(method: ViewMethod[_View, _Params]) -> ViewMethod[_View, _Params]:
        @functools.wraps(method)
        def wrapper(
            view: _View, request: Request, /, *args: _Params.args, **kwargs: _Params.kwargs
        ) -> Response:
            def write() -> Response:
                return method(view, request, *args, **kwargs)

            # Every write runs in one transaction that an exception rolls back
            # whole, keyed or not: nothing is ever partially written.
            key = request.headers.get("Idempotency-Key")
            if key is None:
                with transaction.atomic():
                    response = write()
            else:
                idempotency_key_check(key)
                response = _keyed(request, key, write)
            if carries is not None:
                view.record_access(**carries(response.data), after_write=True)
            return response

        return wrapper

    def _keyed(request: Request, key: str, write: Callable[[], Response]) -> Response:
        with transaction.atomic():
            record = idempotency_reserve(
                principal=principal_of(request), key=key, fingerprint=_fingerprint(request)
            )
            if record.status_code:
                return Response(
                    current(request, record.resource_id),
                    status=record.status_code,
                    headers={"Idempotent-Replayed": "true"},
                )
            response = write()
            idempotency_complete(
                record, status_code=response.status_code, resource_id=response.data["id"]
            )
            return response

    return decorate


def carries_memory(body: dict[str, Any]) -> Carried:
    """What an answer made of one memory carries (its sources' excerpts are part of it)."""
    return {"memories": [body["id"]]}


def carries_message(body: dict[str, Any]) -> Carried:
    return {"messages": [body["id"]]}


def errors(*codes: str) -> dict[int, OpenApiResponse]:
    """OpenAPI responses for the error codes a route can answer with."""
    described: dict[int, OpenApiResponse] = {}
    for code in (*codes, *ALWAYS):
        status = HTTP_STATUS_BY_CODE[code]
        described[status] = OpenApiResponse(
            response=ErrorSerializer,
            description=", ".join(
                sorted({c for c in (*codes, *ALWAYS) if HTTP_STATUS_BY_CODE[c] == status})
            ),
        )
    return described


# Every route can answer these: the surface flag and routing (404), auth (401;
# 403 for a browser session without its CSRF token), method (405), content
# negotiation (406), body size (413), throttling (429) and failures of our
# own (500).
ALWAYS = (
    "unauthenticated",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "not_acceptable",
    "payload_too_large",
    "rate_limited",
    "internal_error",
)
# Routes with a JSON body can also refuse it.
WITH_BODY = ("validation_error", "unsupported_media_type")
