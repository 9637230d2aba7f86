"""What model-assisted reconsolidation would send for one owner now, as data for the owner's
own page.

Each request is prepared exactly as a pass prepares it before admission, which
reads and never writes: no call is recorded, nothing is reserved and nothing
is sent. Only the principal's own memories and messages are read, so the
result is theirs to see and nobody else's.
"""

from collections.abc import Callable
from dataclasses import dataclass

from common.selectors.flags import flag_enabled
from reconsolidation.assisted.admission import CAPABILITY
from reconsolidation.assisted.preparation import BUDGET, prepare_proposal
from reconsolidation.assisted.topic_preparation import prepare_topic_proposal


@dataclass(frozen=True)
class PreviewStage:
    """A request a pass may send: ``prepare(principal, config=...)`` returns its ``Request``;
    ``messages``: whether it carries the owner's messages with each memory."""

    key: str
    prepare: Callable
    messages: bool = True


# The requests a pass opens with, in the order it sends them. Later calls (the
# verification) depend on the provider's reply, so they cannot be previewed; a
# new first request is one more entry here.
PREVIEW_STAGES = (
    PreviewStage("merge", prepare_proposal),
    # A topic proposal sends statements alone; the verifier sees the messages.
    PreviewStage("topic", prepare_topic_proposal, messages=False),
)


def _request_view(stage, request):
    """A prepared ``Request`` as plain data: its items grouped in the blocks it sends."""
    blocks = {}
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


def assisted_preview_get(principal, *, config):
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
