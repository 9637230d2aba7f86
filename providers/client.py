"""The HTTP adapter: one chat-completions call with a strict JSON-schema response format.

It speaks the OpenAI-compatible protocol that hosted APIs, vLLM, Ollama and
llama.cpp's server share. It makes exactly one request per call (never a
retry: a retry would spend a second budget) and turns every way a call can
fail into one ``ProviderError`` subclass whose ``error_class`` is a closed,
content-free code for the audit.
"""

import contextlib
import json
import re
import socket
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from types import TracebackType
from typing import Any

import httpx

from .config import ProviderConfig

# A reply larger than this is not a reply to a 4,096-token request.
MAX_REPLY_BYTES = 1024 * 1024
# More tokens than any model reads or writes in one call: a usage figure above it (or not
# a whole number at all) is not believed, and never reaches the ledger.
MAX_REPORTED_TOKENS = 10_000_000
# The longest a server's Retry-After holds calls back: a longer one is read as this.
MAX_RETRY_AFTER = 3600
_MODEL_NAME = re.compile(r"[A-Za-z0-9._:/@+-]{1,120}")


class ProviderError(Exception):
    error_class = "provider_error"

    def __init__(self, message: str = "", *, retry_after: int | None = None) -> None:
        super().__init__(message)
        # Seconds the server asked to wait before the next call (its Retry-After), or None.
        self.retry_after = retry_after


class ProviderTimeout(ProviderError):
    error_class = "timeout"


class ProviderRateLimited(ProviderError):
    error_class = "rate_limited"


class ProviderUnavailable(ProviderError):
    """A 5xx answer, or no answer at all (refused connection, reset, DNS)."""

    error_class = "unavailable"


class ProviderRefused(ProviderError):
    """Any other 4xx: the key, the model or the request was refused."""

    error_class = "refused"


class MalformedReply(ProviderError):
    """The server answered 200 with something that is not a chat completion."""

    error_class = "malformed"


class AbsurdUsage(ProviderError):
    """The completion reports a usage no call can have: its cost is unknown."""

    error_class = "absurd_usage"


@dataclass(frozen=True)
class Completion:
    content: str
    # The model the server says answered (may differ from the one asked for).
    model: str
    # As reported by the server; None when it reported nothing.
    input_tokens: int | None
    output_tokens: int | None


def retry_after_seconds(value: str | None, *, now: datetime | None = None) -> int | None:
    """The seconds a Retry-After header value asks for (delay-seconds or an HTTP date), at
    most MAX_RETRY_AFTER; None when it is absent or not one of the two."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit():
        return min(int(value), MAX_RETRY_AFTER)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return min(max(int(seconds), 0), MAX_RETRY_AFTER)


def _body(
    config: ProviderConfig,
    *,
    system: str,
    user: str,
    schema: dict[str, Any],
    max_output_tokens: int,
    schema_name: str,
) -> dict[str, Any]:
    return {
        "model": config.model,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "strict": True, "schema": schema},
        },
        "max_tokens": max_output_tokens,
        "temperature": 0,
    }


def request_bytes(
    config: ProviderConfig,
    *,
    system: str,
    user: str,
    schema: dict[str, Any],
    max_output_tokens: int,
    schema_name: str,
) -> bytes:
    """The exact bytes ``complete`` would send, so that a caller can refuse to send them."""
    body = _body(
        config,
        system=system,
        user=user,
        schema=schema,
        max_output_tokens=max_output_tokens,
        schema_name=schema_name,
    )
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _read(response: httpx.Response, deadline: float, max_bytes: int = MAX_REPLY_BYTES) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise MalformedReply("the reply is too large")
        if time.monotonic() > deadline:
            raise ProviderTimeout("the reply did not finish before the deadline")
        chunks.append(chunk)
    if time.monotonic() > deadline:
        # A reply without a length ends where the watchdog cut it.
        raise ProviderTimeout("the reply did not finish before the deadline")
    return b"".join(chunks)


def _usage(reply: dict[str, Any], key: str) -> int | None:
    """A usage figure: None when not reported, else a whole number within bounds."""
    usage = reply.get("usage")
    value = usage.get(key) if isinstance(usage, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise AbsurdUsage(f"{key} is not a whole number")
    if not 0 <= value <= MAX_REPORTED_TOKENS:
        raise AbsurdUsage(f"{key} is out of bounds")
    return value


def _completion(raw: bytes) -> Completion:
    try:
        reply = json.loads(raw)
        content = reply["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise MalformedReply("not a chat completion") from None
    if not isinstance(content, str) or not isinstance(reply, dict):
        raise MalformedReply("not a chat completion")
    model = reply.get("model")
    return Completion(
        content=content,
        # Recorded in the audit: only what looks like a model's name, never free text
        # a server could fill with anything.
        model=model if isinstance(model, str) and _MODEL_NAME.fullmatch(model) else "",
        input_tokens=_usage(reply, "prompt_tokens"),
        output_tokens=_usage(reply, "completion_tokens"),
    )


class _Watchdog:
    """Cuts the call's connection when its deadline passes.

    httpx's timeouts bound each read, not the call: a server sending a byte now and
    then, in its headers or its body, would never trip them. The watchdog learns the
    connection's socket as it is opened (httpcore's ``trace`` extension) and shuts it
    down at the deadline, which ends whatever read is waiting.
    """

    def __init__(self, seconds: float) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self.expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> "_Watchdog":
        self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._timer.cancel()

    def trace(self, event: str, info: dict[str, Any]) -> None:
        stream = info.get("return_value")
        # The network stream httpcore opened; other trace events carry something else.
        extra_info = getattr(stream, "get_extra_info", None)
        sock = extra_info("socket") if extra_info is not None else None
        if sock is None:
            return
        with self._lock:
            self._socket = sock
            if self.expired:
                self._cut()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            self._cut()

    def _cut(self) -> None:
        if self._socket is not None:
            # An OSError: the socket is closed already, the call over.
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)


def complete(config: ProviderConfig, *, payload: bytes, timeout: float) -> Completion:
    """Send ``payload`` (``request_bytes``) and return the completion, or raise ProviderError.

    ``timeout`` bounds the whole call, connecting to the last byte, however slowly the
    reply arrives.
    """
    return _completion(post(config, "/chat/completions", payload=payload, timeout=timeout))


def post(
    config: ProviderConfig,
    path: str,
    *,
    payload: bytes,
    timeout: float,
    max_reply_bytes: int = MAX_REPLY_BYTES,
) -> bytes:
    """POST the JSON ``payload`` to ``path`` of ``config``'s server once, and return the reply's
    bytes, or raise ProviderError: ``timeout`` bounds the whole call, connecting to the last
    byte, however slowly the reply arrives."""
    deadline = time.monotonic() + timeout
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    url = config.base_url.rstrip("/") + path
    watchdog = _Watchdog(timeout)
    try:
        with (
            watchdog,
            httpx.Client(timeout=timeout, follow_redirects=False) as client,
            client.stream(
                "POST",
                url,
                content=payload,
                headers=headers,
                extensions={"trace": watchdog.trace},
            ) as response,
        ):
            retry_after = retry_after_seconds(response.headers.get("Retry-After"))
            if response.status_code == 429:
                raise ProviderRateLimited(f"HTTP {response.status_code}", retry_after=retry_after)
            if response.status_code >= 500:
                raise ProviderUnavailable(f"HTTP {response.status_code}", retry_after=retry_after)
            if response.status_code != 200:
                raise ProviderRefused(f"HTTP {response.status_code}")
            return _read(response, deadline, max_reply_bytes)
    except httpx.TimeoutException:
        raise ProviderTimeout("no reply before the deadline") from None
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        if watchdog.expired:
            raise ProviderTimeout("the reply did not finish before the deadline") from None
        # Refused connections, resets, DNS, and a base URL httpx cannot use.
        raise ProviderUnavailable(type(error).__name__) from None
