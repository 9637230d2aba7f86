"""What the synchronous and the asynchronous client share: a request as data (``Call``),
the retry policy, and turning an answer into a result or an exception.

Retries are safe by construction. A read can be repeated. A write carries an
``Idempotency-Key`` that stays the same across its retries, so when an answer is lost
after the service committed, the retry is answered by the service's replay of the
first result instead of writing twice. A write the service keeps no key for (the
account erasure routes) is retried only when the service certainly never saw it: a
refused connection, or a 429 (throttling refuses before the write begins).
"""

import json
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from .errors import ReverieError, ServiceUnavailableError, error_from_body
from .models import decode

T = TypeVar("T")

API_PREFIX = "/api/v1"
DEFAULT_URL = "http://127.0.0.1:8000"
VERSION = "0.1.0"
USER_AGENT = f"reverie-client/{VERSION}"

# Answers of a proxy or a restarting service, worth another try.
TRANSIENT_STATUSES = frozenset({429, 502, 503, 504})


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API, as data: the route, its arguments and what it returns.

    ``operation_id`` is the route's id in the service's OpenAPI schema.
    """

    operation_id: str
    method: str
    template: str
    returns: Any
    path_params: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, Any] | None = None
    body: Any = None
    # The route keeps an Idempotency-Key: one is sent (the caller's, or a new one),
    # and the request may be retried under it.
    keyed: bool = False
    idempotency_key: str | None = None
    # A read: repeating it is harmless.
    reads: bool = False
    content: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def path(self) -> str:
        values = {name: quote(str(value), safe="") for name, value in self.path_params.items()}
        return API_PREFIX + self.template.format(**values)

    @property
    def repeatable(self) -> bool:
        return self.reads or self.keyed


@dataclass(frozen=True)
class Retries:
    """How the client retries transient failures.

    ``attempts`` counts every try, the first included (1 turns retrying off). Waits
    grow from ``backoff`` seconds, doubling up to ``max_backoff``, with jitter. A
    ``429`` is waited out when its ``Retry-After`` is at most ``max_retry_after``
    seconds; a longer one is raised at once as ``RateLimitedError``.
    """

    attempts: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 10.0

    def _backoff(self, attempt: int) -> float:
        wait = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return wait * random.uniform(0.5, 1.0)

    def after_exception(self, call: Call[Any], attempt: int, exc: httpx.HTTPError) -> float | None:
        """Seconds to wait before trying ``call`` again after ``exc``, or ``None``."""
        if attempt >= self.attempts:
            return None
        never_sent = isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
        if call.repeatable or never_sent:
            return self._backoff(attempt)
        return None

    def after_response(
        self, call: Call[Any], attempt: int, response: httpx.Response
    ) -> float | None:
        """Seconds to wait before trying ``call`` again after ``response``, or ``None``."""
        if attempt >= self.attempts or response.status_code not in TRANSIENT_STATUSES:
            return None
        if response.status_code == 429:
            retry_after = _retry_after(response)
            if retry_after is None:
                return self._backoff(attempt)
            return retry_after if retry_after <= self.max_retry_after else None
        return self._backoff(attempt) if call.repeatable else None


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return max(0.0, float(response.headers["Retry-After"]))
    except (KeyError, ValueError):
        return None


def new_idempotency_key() -> str:
    return f"rc-{uuid.uuid4().hex}"


def request_headers(call: Call[Any]) -> dict[str, str]:
    """The headers of ``call``, the same on every try: its request id (which the
    service echoes and logs) and, for a keyed write, its Idempotency-Key."""
    headers = {"X-Request-ID": uuid.uuid4().hex, **call.headers}
    if call.keyed:
        headers["Idempotency-Key"] = call.idempotency_key or new_idempotency_key()
    return headers


def request_kwargs(call: Call[Any], headers: dict[str, str]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"headers": headers}
    if call.params:
        kwargs["params"] = {k: _query_value(v) for k, v in call.params.items() if v is not None}
    if call.content is not None:
        kwargs["content"] = call.content
    elif call.body is not None:
        kwargs["json"] = call.body
    return kwargs


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def failure(response: httpx.Response) -> ReverieError:
    """The exception for a non-2xx answer."""
    request_id = response.headers.get("X-Request-ID", "")
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    error = error_from_body(response.status_code, body, request_id)
    if error is not None:
        return error
    url = response.request.url
    return ServiceUnavailableError(
        f"{response.request.method} {url.copy_with(query=None)} answered "
        f"{response.status_code} ({response.headers.get('Content-Type', 'no content type')}) "
        f"without an error body of Reverie's API. Is {url.scheme}://{url.netloc.decode()} "
        "Reverie's address?",
        status_code=response.status_code,
    )


def result(call: Call[T], response: httpx.Response) -> T:
    """The decoded result of a 2xx answer to ``call``."""
    try:
        data = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ServiceUnavailableError(
            f"The service answered {response.status_code} with a body that is not JSON.",
            status_code=response.status_code,
        ) from None
    return decode(call.returns, data)


def unreachable(
    call: Call[Any], exc: httpx.HTTPError, *, base_url: str, attempts: int
) -> ServiceUnavailableError:
    """The error for ``call`` that got no whole answer from ``base_url`` in ``attempts``
    tries, in words a script's reader can act on. The query string is left out: it
    may carry the caller's search text."""
    base = base_url.rstrip("/")
    tries = f"{attempts} {'try' if attempts == 1 else 'tries'}"
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        what = "connection refused" if "refused" in str(exc).lower() else "could not connect"
        return ServiceUnavailableError(
            f"{call.method} {base}{call.path}: {what}, {tries}. Is Reverie running at {base}?"
        )
    if isinstance(exc, httpx.TimeoutException):
        what = "no whole answer within the client's timeout"
    else:
        what = f"the connection broke before a whole answer came ({type(exc).__name__})"
    return ServiceUnavailableError(f"{call.method} {base}{call.path}: {what}, {tries}.")


def api_url(base_url: str) -> str:
    """The service's root from ``base_url``, which may name the API (…/api/v1) or not."""
    base = base_url.rstrip("/")
    return base.removesuffix(API_PREFIX)


def auth_headers(token: str | None) -> dict[str, str]:
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers
