"""What model-assisted reconsolidation would send for one owner now, as data for the owner's
own page.

Each request is prepared exactly as a pass prepares it before admission, which
reads and never writes: no call is recorded, nothing is reserved and nothing
is sent. Only the principal's own memories and messages are read, so the
result is theirs to see and nobody else's.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol, TypedDict

from accounts.models import User
from common.selectors.flags import flag_enabled
from providers.config import ProviderConfig
from reconsolidation.assisted.admission import CAPABILITY
from reconsolidation.assisted.preparation import BUDGET, Budget, Request, prepare_proposal
from reconsolidation.assisted.topic_preparation import prepare_topic_proposal


class _Prepare(Protocol):
    def __call__(self, principal: User, *, config: ProviderConfig | None) -> Request: ...


class PreviewItem(TypedDict):
    """A memory as a request would send it."""

    label: str
    public_id: str
    statement: str
    redacted: bool
    excerpts: list[str]


class PreviewBlock(TypedDict):
    label: str
    items: list[PreviewItem]


class RequestPreview(TypedDict):
    """A prepared request as plain data (``_request_view``)."""

    key: str
    messages: bool
    stage: str
    deferred: str
    # (reason, count), most first.
    excluded: list[tuple[str, int]]
    blocks: list[PreviewBlock]
    size: int
    digest: str
    price: Decimal
    payload: str


class AssistedPreview(TypedDict):
    """What ``assisted_preview_get`` returns."""

    capability: bool
    binding: str
    model: str
    server: str
    residency: str
    budget: Budget
    requests: list[RequestPreview]


@dataclass(frozen=True)
class PreviewStage:
    """A request a pass may send: ``prepare(principal, config=...)`` returns its ``Request``;
    ``messages``: whether it carries the owner's messages with each memory."""

    key: str
    prepare: _Prepare
    messages: bool = True


# The requests a pass opens with, in the order it sends them. Later calls (the
# verification) depend on the provider's reply, so they cannot be previewed; a
# new first request is one more entry here.
PREVIEW_STAGES = (
    PreviewStage("merge", prepare_proposal),
    # A topic proposal sends statements alone; the verifier sees the messages.
    PreviewStage("topic", prepare_topic_proposal, messages=False),
)


def _request_view(stage: PreviewStage, request: Request) -> RequestPreview:
    """A prepared ``Request`` as plain data: its items grouped in the blocks it sends."""
    blocks: dict[str, list[PreviewItem]] = {}
    for label, item in request.items.items():
        blocks.setdefault(request.groups.get(label, ""), []).append(
            {
                "label": label,
                "public_id": item.view.public_id,
                "statement": item.statement,
                # The memory says more than is sent: a secret in it was redacted.
                "redacted": item.statement != item.view.statement,
                "excerpts": list(item.excerpts) if stage.messages else [],
            }
        )
    return {
        "key": stage.key,
        "messages": stage.messages,
        "stage": request.stage,
        "deferred": request.deferred,
        "excluded": sorted(request.excluded.items(), key=lambda entry: (-entry[1], entry[0])),
        "blocks": [{"label": label, "items": items} for label, items in blocks.items()],
        "size": len(request.payload),
        "digest": request.digest,
        "price": request.price,
        "payload": request.payload.decode(),
    }


def assisted_preview_get(principal: User, *, config: ProviderConfig | None) -> AssistedPreview:
    """What model-assisted reconsolidation would send for ``principal`` now, under ``config``
    (a ``ProviderConfig``, or None when none is configured), writing nothing.

    Returns whether the capability is effectively on, where requests would go, the
    bounds of one request, and one entry per stage of ``PREVIEW_STAGES``: why nothing would
    be sent (``deferred``, a closed code, "" when something would), what was left
    out by reason, the blocks of memories with their statements and the owner's
    messages exactly as the request holds them, and the request's size, SHA-256
    digest, price at most and bytes.
    """
    return {
        "capability": flag_enabled(CAPABILITY),
        "binding": config.binding if config is not None else "",
        "model": config.model if config is not None else "",
        "server": config.base_url.rstrip("/") if config is not None else "",
        "residency": config.residency if config is not None else "",
        "budget": BUDGET,
        "requests": [
            _request_view(stage, stage.prepare(principal, config=config))
            for stage in PREVIEW_STAGES
        ],
    }
