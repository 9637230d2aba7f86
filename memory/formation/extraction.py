"""Run an extractor and the pure gates over plain messages, without a database.

This is formation's decision path minus everything that needs stored state
(prior rejections, deletion fences, conflicts, the consumption ceiling): the
provenance rule, the scope and shape checks and the content gates. The
``extract`` debugging command, the quality scorer and the coverage report use
it, so that what they print is what the gates would decide.
"""

from dataclasses import dataclass

from memory.enums import (
    MESSAGE_AUTHOR_KIND,
    AuthorKind,
    BeliefType,
    EventType,
    Polarity,
)
from memory.text import is_valid_subject, normalise_statement

from .candidates import ExtractionMessage, KnownBelief
from .extractor import DeterministicExtractor
from .gates import content_rejection


@dataclass(frozen=True)
class CandidateDecision:
    """What the pure gates decided about one proposal: accepted, or rejected with a reason."""

    candidate: object
    reason: str = ""

    @property
    def accepted(self):
        return not self.reason

    @property
    def decision(self):
        return "accepted" if self.accepted else "rejected"


@dataclass(frozen=True)
class ExtractionOutcome:
    result: object
    decisions: tuple[CandidateDecision, ...]

    @property
    def accepted(self):
        return tuple(d.candidate for d in self.decisions if d.accepted)


def user_message(*, id, text, occurred_at, event_type=EventType.USER_MESSAGE):
    """A message as extractors see it, authored by whoever authors ``event_type``."""
    parts = tuple(text) if isinstance(text, list | tuple) else (text,)
    return ExtractionMessage(
        id=str(id),
        event_type=str(event_type),
        author_kind=str(MESSAGE_AUTHOR_KIND.get(event_type, AuthorKind.SYSTEM)),
        parts=parts,
        occurred_at=occurred_at,
    )


def provenance_rejection(candidate, messages_by_id):
    """ "provenance" unless every source is a user message the owner wrote; else None.

    Checked independently of the extractor, so that no extractor can grant
    itself trust by citing someone else's message.
    """
    ids = tuple(candidate.source_ids or ())
    if not ids:
        return "provenance"
    for source_id in ids:
        message = messages_by_id.get(str(source_id))
        if (
            message is None
            or message.event_type != EventType.USER_MESSAGE
            or message.author_kind != AuthorKind.PRINCIPAL
        ):
            return "provenance"
    return None


def shape_rejection(candidate, scope):
    """ "scope" or "malformed" for a proposal the service could not store as it is; else None."""
    if candidate.scope != scope:
        return "scope"
    if (
        candidate.type not in BeliefType.values
        or candidate.polarity not in Polarity.values
        or not is_valid_subject(candidate.subject)
        or not isinstance(candidate.statement, str)
        or not candidate.statement.strip()
        or isinstance(candidate.confidence, bool)
        or not isinstance(candidate.confidence, int | float)
    ):
        return "malformed"
    return None


def extraction_decide(request, *, extractor=None):
    """Extract from ``request`` and decide each proposal with the pure gates, in order.

    Reasons are the service's codes: ``malformed``, ``scope``, ``provenance``,
    the content gates' codes, and ``duplicate`` for a claim already decided
    in this run.
    """
    extractor = extractor or DeterministicExtractor()
    result = extractor.extract(request)
    by_id = {message.id: message for message in request.messages}
    seen = set()
    decisions = []
    for candidate in result.candidates:
        reason = shape_rejection(candidate, request.scope) or provenance_rejection(candidate, by_id)
        if not reason:
            texts = [by_id[source].text for source in candidate.source_ids]
            reason = content_rejection(candidate, texts)
        if not reason:
            key = (candidate.subject, normalise_statement(candidate.statement), candidate.polarity)
            reason = "duplicate" if key in seen else None
            seen.add(key)
        decisions.append(CandidateDecision(candidate=candidate, reason=reason or ""))
    return ExtractionOutcome(result=result, decisions=tuple(decisions))


class KnownLedger:
    """The beliefs a run has accepted so far, as ``known`` for the next request.

    A later message ("I sold the BMW") can then name what an earlier one
    formed, as it would against stored beliefs.
    """

    def __init__(self, known=()):
        self._beliefs = {belief.subject: belief for belief in known}

    @property
    def known(self):
        return tuple(self._beliefs.values())

    def record(self, decisions):
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


def decision_as_dict(decision):
    """One decided proposal as plain JSON-ready data."""
    candidate = decision.candidate
    hint = candidate.temporal
    temporal = None
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
