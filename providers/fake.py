"""A fake OpenAI-compatible provider on loopback, for tests and for trying Reverie by hand.

It is a real HTTP server (``http.server`` in a thread) that answers
``POST /v1/chat/completions`` according to its current behaviour, and counts
the requests it received, so that a test can prove that none were sent.
``manage.py fake_provider`` runs one in the foreground.

It knows no app's requests. An app registers, from its ``AppConfig.ready``,
how the fake answers the requests of each of its JSON schema names
(``fake_answers_register``), with any behaviours of its own and the scripted
answers ``FakeProvider.set`` takes for them; each app's ``fake_answers``
module describes its answers (``careful``, what a careful model would answer;
``silent``, nothing proposed; ``quiet_on_single``, formation's careful reader that
proposes nothing from a single message). A request whose schema no app registered is
refused (400) with a message naming the schema, never answered by a guess.

Behaviours every request shares (``FakeProvider.behaviour``):

- ``valid``: the answer its schema registered.
- ``malformed``: a completion whose content is not JSON.
- ``schema``: JSON that violates the schema.
- ``slow``: waits ``delay`` seconds, then answers as ``valid``.
- ``drip``: answers as ``valid``, but sends the reply, status line and headers included,
  one byte every ``delay`` seconds.
- ``rate_limited`` (429) and ``unavailable`` (503).
- ``retry_after``: 429 with a Retry-After of ``retry_after`` seconds.
- ``over_budget``: a valid answer reporting more tokens than any budget allows.
- ``no_usage``: a valid answer that reports no usage.
- ``absurd_usage``: a valid answer reporting 10^18 input and output tokens.

A behaviour an app registered applies to the requests of its own schemas;
requests of the others answer it as ``valid``. ``set(..., stage=<schema name>)``
limits a behaviour to requests of one schema; the others are answered as ``valid``.
"""

import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

# The fake listens on loopback only.
LOOPBACK = "127.0.0.1"

SHARED_BEHAVIOURS = (
    "valid",
    "malformed",
    "schema",
    "slow",
    "drip",
    "rate_limited",
    "retry_after",
    "unavailable",
    "over_budget",
    "no_usage",
    "absurd_usage",
)


@dataclass(frozen=True)
class FakeRequest:
    """One request, as the answer its schema registered sees it."""

    schema: str
    # ``valid``, or a behaviour the answering app registered.
    behaviour: str
    # The JSON object of the user message; empty when it is not one.
    user: dict[str, Any]
    # What ``FakeProvider.set`` scripted, by name; a name not scripted is absent.
    scripts: Mapping[str, Any]


@dataclass(frozen=True)
class FakeAnswers:
    """How the fake answers the requests of one JSON schema name."""

    # The reply's content (a JSON object) for a request, by its behaviour.
    answer: Callable[[FakeRequest], dict[str, Any]]
    # What ``malformed`` answers: text that is not JSON.
    malformed: str
    # What ``schema`` answers: JSON outside the schema.
    off_schema: dict[str, Any]
    # The app's own behaviours, for requests of this schema.
    behaviours: tuple[str, ...] = ()
    # The keywords ``FakeProvider.set`` takes to script this schema's answers.
    scripts: tuple[str, ...] = ()


_answers: dict[str, FakeAnswers] = {}


def fake_answers_register(schema_name: str, answers: FakeAnswers) -> None:
    """Answer the requests of ``schema_name`` with ``answers``; called from an app's ready()."""
    shared = set(answers.behaviours) & set(SHARED_BEHAVIOURS)
    if shared:
        raise ValueError(f"behaviours every request shares: {sorted(shared)}")
    if _answers.get(schema_name, answers) != answers:
        raise ValueError(f"the schema {schema_name!r} has answers already")
    _answers[schema_name] = answers


def behaviours() -> tuple[str, ...]:
    """Every behaviour the fake knows: the shared ones, then those the apps registered."""
    own = (behaviour for answers in _answers.values() for behaviour in answers.behaviours)
    return tuple(dict.fromkeys((*SHARED_BEHAVIOURS, *own)))


def _scripts() -> set[str]:
    return {name for answers in _answers.values() for name in answers.scripts}


def _user_object(body: dict[str, Any]) -> dict[str, Any]:
    try:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        value = json.loads(user)
    except (KeyError, StopIteration, ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def _schema_name(body: dict[str, Any]) -> str:
    try:
        name = body["response_format"]["json_schema"]["name"]
    except (KeyError, TypeError):
        return ""
    return name if isinstance(name, str) else ""


class FakeProvider:
    """A fake provider listening on 127.0.0.1; use as a context manager or start()/stop()."""

    def __init__(
        self, *, behaviour: str = "valid", port: int = 0, delay: float = 2.0, retry_after: int = 120
    ) -> None:
        self.behaviour = behaviour
        self.stage: str | None = None
        self.scripts: dict[str, Any] = {}
        self.delay = delay
        self.retry_after = retry_after
        self.requests = 0
        self.last_body = None
        # The exact bytes of every request received, in order.
        self.raw_requests: list[bytes] = []
        self.last_authorization: str | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((LOOPBACK, port), self._handler())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self._server.server_port}/v1"

    def start(self) -> "FakeProvider":
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (``manage.py fake_provider``)."""
        self._server.serve_forever()

    def stop_serving(self) -> None:
        self._server.server_close()

    def __enter__(self) -> "FakeProvider":
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def set(self, behaviour: str, *, stage: str | None = None, **scripts: Any) -> None:
        """Answer by ``behaviour`` from now on, with the answers ``scripts`` name
        (``proposals=[...]``) instead of the registered ones; every call replaces them all."""
        if behaviour not in behaviours():
            raise ValueError(f"unknown behaviour {behaviour!r}")
        unknown = set(scripts) - _scripts()
        if unknown:
            raise ValueError(f"no registered answers take {sorted(unknown)}")
        self.behaviour, self.stage = behaviour, stage
        self.scripts = {name: value for name, value in scripts.items() if value is not None}

    def _behaviour(self, schema: str) -> str:
        """The behaviour that answers a request of ``schema``."""
        answers = _answers.get(schema)
        behaviour = self.behaviour if self.stage in (None, schema) else "valid"
        if answers is None or (
            behaviour not in SHARED_BEHAVIOURS and behaviour not in answers.behaviours
        ):
            return "valid"
        return behaviour

    def drips(self, body: dict[str, Any]) -> bool:
        """Whether the reply to ``body`` is sent one byte every ``delay`` seconds."""
        return self._behaviour(_schema_name(body)) == "drip"

    def reply_headers(self, body: dict[str, Any]) -> dict[str, str]:
        """The headers the reply to ``body`` adds to the fake's own."""
        if self._behaviour(_schema_name(body)) == "retry_after":
            return {"Retry-After": str(self.retry_after)}
        return {}

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(status, reply object) for a request body, by the current behaviour."""
        schema = _schema_name(body)
        answers = _answers.get(schema)
        if answers is None:
            message = f"no app registered answers for the JSON schema {schema!r}"
            return 400, {"error": {"message": message}}
        behaviour = self._behaviour(schema)
        if behaviour in ("rate_limited", "retry_after"):
            return 429, {"error": {"message": "rate limited"}}
        if behaviour == "unavailable":
            return 503, {"error": {"message": "unavailable"}}
        if behaviour == "slow":
            time.sleep(self.delay)
        usage: dict[str, int] = {"prompt_tokens": 900, "completion_tokens": 120}
        if behaviour == "no_usage":
            usage = {}
        if behaviour == "absurd_usage":
            usage = {"prompt_tokens": 10**18, "completion_tokens": 10**18}
        if behaviour == "over_budget":
            usage = {"prompt_tokens": 250_000, "completion_tokens": 9_000}
        if behaviour == "malformed":
            return 200, self._completion(answers.malformed, usage)
        if behaviour == "schema":
            return 200, self._completion(json.dumps(answers.off_schema), usage)
        request = FakeRequest(
            schema=schema,
            behaviour=behaviour if behaviour in answers.behaviours else "valid",
            user=_user_object(body),
            scripts=self.scripts,
        )
        return 200, self._completion(json.dumps(answers.answer(request)), usage)

    def _completion(self, content: str, usage: dict[str, int]) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "model": "fake-1",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": usage,
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with provider._lock:
                    provider.requests += 1
                    provider.raw_requests.append(raw)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}})
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, {"error": {"message": "not JSON"}})
                    return
                provider.last_body = body
                provider.last_authorization = self.headers.get("Authorization")
                status, reply = provider.answer(body)
                if provider.drips(body):
                    self._drip(status, reply)
                    return
                self._send(status, reply, provider.reply_headers(body))

            def _drip(self, status: int, reply: dict[str, Any]) -> None:
                data = json.dumps(reply).encode()
                head = (
                    f"HTTP/1.0 {status} {self.responses[status][0]}\r\n"
                    "Content-Type: application/json\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n"
                ).encode()
                raw = head + data
                try:
                    for index in range(len(raw)):
                        self.wfile.write(raw[index : index + 1])
                        time.sleep(provider.delay)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its deadline passed)
                self.close_connection = True

            def _send(
                self, status: int, reply: dict[str, Any], headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(reply).encode()
                try:
                    self.send_response(status)
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its deadline passed)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
