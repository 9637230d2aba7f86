"""The checks a proposal passes before anything stored is consulted: one set, pure.

The formation service runs them first and then its gates on stored state (prior
rejections, deletion fences, conflicts); the dry-run path (``extraction_decide``, used by
the ``extract`` command, the corpus scorer and the coverage report) runs only them. So
both decide alike wherever no stored state is involved. Reasons are the service's codes.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Protocol, TypedDict, TypeVar

from django.conf import settings
from django.utils import timezone

from memory.enums import AuthorKind, BeliefType, EventType, Polarity
from memory.text import is_valid_subject, normalise_statement

from .candidates import MemoryCandidate
from .gates import content_rejection


class SourceMessage(Protocol):
    """A message a proposal cites: a stored event, or a message of an extraction request."""

    @property
    def event_type(self) -> str: ...
    @property
    def author_kind(self) -> str: ...
    @property
    def text(self) -> str: ...


_S = TypeVar("_S", bound=SourceMessage)


class TemporalBounds(TypedDict):
    """When a checked claim holds: aware datetimes, or None where the claim said nothing."""

    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None


class Rejected(Exception):
    """A proposal refused, with the service's reason code."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Checked(Generic[_S]):
    """A proposal that passed every check needing no database."""

    candidate: MemoryCandidate
    # The cited messages (events, or the messages of an extraction request), in order.
    sources: tuple[_S, ...]
    statement: str
    # valid_from, valid_until and expires_at: aware datetimes or None.
    temporal: TemporalBounds


def _shape(candidate: MemoryCandidate, scope: str) -> None:
    if candidate.scope != scope:
        raise Rejected("scope")
    if (
        candidate.type not in BeliefType.values
        or candidate.polarity not in Polarity.values
        or not is_valid_subject(candidate.subject)
        or not isinstance(candidate.statement, str)
        or not candidate.statement.strip()
        or len(candidate.statement) > settings.REVERIE_LIMITS["statement_max_chars"]
        or not isinstance(candidate.confidence, int | float)
        or isinstance(candidate.confidence, bool)
    ):
        raise Rejected("malformed")


def _sources(candidate: MemoryCandidate, messages_by_id: Mapping[str, _S]) -> tuple[_S, ...]:
    """The cited messages, each a user message the owner wrote, whatever the extractor
    claims, so that no extractor can grant itself trust by citing someone else's words."""
    ids = tuple(candidate.source_ids or ())
    if not ids:
        raise Rejected("provenance")
    sources: list[_S] = []
    for source_id in ids:
        message = messages_by_id.get(str(source_id))
        if (
            message is None
            or message.event_type != EventType.USER_MESSAGE
            or message.author_kind != AuthorKind.PRINCIPAL
        ):
            raise Rejected("provenance")
        sources.append(message)
    return tuple(sources)


def _temporal(candidate: MemoryCandidate, now: datetime) -> TemporalBounds:
    hint = candidate.temporal
    values = TemporalBounds(
        valid_from=getattr(hint, "valid_from", None),
        valid_until=getattr(hint, "valid_until", None),
        expires_at=getattr(hint, "expires_at", None),
    )
    for value in values.values():
        # An extractor's hint is not trusted to be what its type says.
        if value is not None and (not isinstance(value, datetime) or timezone.is_naive(value)):
            raise Rejected("malformed")
    if (
        values["valid_from"]
        and values["valid_until"]
        and values["valid_until"] < values["valid_from"]
    ):
        raise Rejected("malformed")
    if values["expires_at"] is not None and values["expires_at"] <= now:
        raise Rejected("already_expired")
    return values


def proposal_check(
    candidate: MemoryCandidate,
    *,
    scope: str,
    messages_by_id: Mapping[str, _S],
    seen: set[tuple[str, str, str]],
    now: datetime | None = None,
) -> Checked[_S]:
    """Shape, provenance, content, temporal and duplicate checks, in that order.

    ``messages_by_id`` maps the prefix's message ids (strings) to objects with
    ``event_type``, ``author_kind`` and ``text``; ``seen`` collects the claims
    already passed in this run, so a repeat is a ``duplicate``. Returns
    ``Checked``, or raises ``Rejected``.
    """
    _shape(candidate, scope)
    sources = _sources(candidate, messages_by_id)
    reason = content_rejection(candidate, [source.text for source in sources])
    if reason:
        raise Rejected(reason)
    temporal = _temporal(candidate, now or timezone.now())
    statement = candidate.statement.strip()
    key = (candidate.subject, normalise_statement(statement), candidate.polarity)
    if key in seen:
        raise Rejected("duplicate")
    seen.add(key)
    return Checked(candidate=candidate, sources=sources, statement=statement, temporal=temporal)
