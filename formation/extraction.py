"""Run an extractor and the pure checks over plain messages, without a database.

This is formation's decision path minus everything that needs stored state
(prior rejections, deletion fences, conflicts, the consumption ceiling): the
service's own shape, scope, provenance, content, temporal and duplicate checks
(``formation.checks``). The ``extract`` debugging command, the quality
scorer and the coverage report use it, so that what they print is what the
service would decide.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory.enums import (
    MESSAGE_AUTHOR_KIND,
    AuthorKind,
    EventType,
    Polarity,
)

from .candidates import (
    ExtractionMessage,
    ExtractionRequest,
    ExtractionResult,
    KnownBelief,
    MemoryCandidate,
    MemoryCandidateExtractor,
)
from .checks import Rejected, proposal_check
from .extractor import DeterministicExtractor


@dataclass(frozen=True)
class CandidateDecision:
    """What the pure gates decided about one proposal: accepted, or rejected with a reason."""

    candidate: MemoryCandidate
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return not self.reason

    @property
    def decision(self) -> str:
        return "accepted" if self.accepted else "rejected"


@dataclass(frozen=True)
class ExtractionOutcome:
    result: ExtractionResult
    decisions: tuple[CandidateDecision, ...]

    @property
    def accepted(self) -> tuple[MemoryCandidate, ...]:
        return tuple(d.candidate for d in self.decisions if d.accepted)


def user_message(
    *,
    id: object,
    text: str | Sequence[str],
    occurred_at: datetime,
    event_type: str = EventType.USER_MESSAGE,
) -> ExtractionMessage:
    """A message as extractors see it, authored by whoever authors ``event_type``."""
    parts = tuple(text) if isinstance(text, list | tuple) else (text,)
    return ExtractionMessage(
        id=str(id),
        event_type=str(event_type),
        author_kind=str(MESSAGE_AUTHOR_KIND.get(event_type, AuthorKind.SYSTEM)),
        parts=parts,
        occurred_at=occurred_at,
    )


def extraction_decide(
    request: ExtractionRequest,
    *,
    extractor: MemoryCandidateExtractor | None = None,
    now: datetime | None = None,
) -> ExtractionOutcome:
    """Extract from ``request`` and decide each proposal with the pure checks, in order.

    The checks are the formation service's own (``formation.checks``), so the
    reasons are its codes. ``now`` defaults to the newest message's time: a dry run
    decides as a consolidation right after the conversation would.
    """
    extractor = extractor or DeterministicExtractor()
    result = extractor.extract(request)
    by_id = {message.id: message for message in request.messages}
    if now is None and request.messages:
        now = max(message.occurred_at for message in request.messages)
    seen: set[tuple[str, str, str]] = set()
    decisions: list[CandidateDecision] = []
    for candidate in result.candidates:
        try:
            proposal_check(candidate, scope=request.scope, messages_by_id=by_id, seen=seen, now=now)
        except Rejected as rejection:
            reason = rejection.reason
        else:
            reason = ""
        decisions.append(CandidateDecision(candidate=candidate, reason=reason))
    return ExtractionOutcome(result=result, decisions=tuple(decisions))


class KnownLedger:
    """The beliefs a run has accepted so far, as ``known`` for the next request.

    A later message ("I sold the BMW") can then name what an earlier one
    formed, as it would against stored beliefs.
    """

    def __init__(self, known: Iterable[KnownBelief] = ()) -> None:
        self._beliefs = {belief.subject: belief for belief in known}

    @property
    def known(self) -> tuple[KnownBelief, ...]:
        return tuple(self._beliefs.values())

    def record(self, decisions: Iterable[CandidateDecision]) -> None:
        for decision in decisions:
            if not decision.accepted:
                continue
            candidate = decision.candidate
            if candidate.polarity == Polarity.NEGATIVE:
                self._beliefs.pop(candidate.subject, None)
            else:
                self._beliefs[candidate.subject] = KnownBelief(
                    subject=candidate.subject,
                    statement=candidate.statement,
                    type=candidate.type,
                    polarity=candidate.polarity,
                )


def decision_as_dict(decision: CandidateDecision) -> dict[str, Any]:
    """One decided proposal as plain JSON-ready data."""
    candidate = decision.candidate
    hint = candidate.temporal
    temporal: dict[str, str | None] | None = None
    if hint.phrase or hint.valid_from or hint.valid_until or hint.expires_at:
        temporal = {
            "phrase": hint.phrase,
            "valid_from": hint.valid_from.isoformat() if hint.valid_from else None,
            "valid_until": hint.valid_until.isoformat() if hint.valid_until else None,
            "expires_at": hint.expires_at.isoformat() if hint.expires_at else None,
        }
    return {
        "type": str(candidate.type),
        "subject": candidate.subject,
        "statement": candidate.statement,
        "polarity": str(candidate.polarity),
        "confidence": round(float(candidate.confidence), 3),
        "sensitivity": str(candidate.sensitivity),
        "temporal": temporal,
        "decision": decision.decision,
        "reason": decision.reason or None,
    }
